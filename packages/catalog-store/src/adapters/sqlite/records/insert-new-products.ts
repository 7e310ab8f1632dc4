import type { DatabaseSync } from 'node:sqlite';
import type { ProductInput } from '../../../model/product.ts';
import { resolveBrand } from '../../../records/brand-records.ts';
import type { BrandRef } from '../../../write-rules/brand-rules.ts';
import type { CheckedBatch } from '../../../write-rules/product-batch.ts';
import { createdAtOf, type PreparedProduct } from '../../../write-rules/product-write.ts';
import { unregisteredChannel } from '../../../write-rules/record-rules.ts';
import { statement } from '../statement-cache.ts';
import { runOn } from './sqlite-record-engine.ts';
import { INSERT_SQL, rowValues } from './write-product.ts';

export interface InsertedBatch {
  /** The seq range of the inserted products; 0 when none was new. */
  first: number;
  last: number;
  created: number;
  /** Inputs whose id exists or came earlier in the batch: for the per-product path, in order. */
  later: ProductInput[];
}

interface Lookups {
  brand: (input: ProductInput) => BrandRef | null;
  channel: (slug: string) => number;
}

function lookups(db: DatabaseSync, ts: number): Lookups {
  const brands = new Map<string, BrandRef | null>();
  const channels = new Map<string, number>();
  return {
    brand: (input) => {
      const key = `${input.brandSlug?.trim() ?? ''}\u0000${input.brandName?.trim() ?? ''}`;
      let brand = brands.get(key);
      if (brand === undefined && !brands.has(key)) {
        brand = runOn(db, resolveBrand(input.brandName, input.brandSlug, ts));
        brands.set(key, brand);
      }
      return brand ?? null;
    },
    channel: (slug) => {
      let id = channels.get(slug);
      if (id === undefined) {
        const row = statement(db, 'SELECT id FROM web_channels WHERE slug = ?').get(slug) as
          | { id: number }
          | undefined;
        if (row === undefined) throw unregisteredChannel(`webVisibility.${slug}`);
        id = row.id;
        channels.set(slug, id);
      }
      return id;
    },
  };
}

/** Inserts one new product with its relations and channel values; returns its seq. */
function insertNew(
  db: DatabaseSync,
  { input, id, relations }: PreparedProduct,
  ts: number,
  look: Lookups,
): number {
  const values = rowValues(input, look.brand(input), ts);
  const seq = (statement(db, INSERT_SQL).get(id, createdAtOf(input, ts), ...values) as { seq: number }).seq;
  const relation = statement(
    db,
    'INSERT INTO product_relations (product_seq, position, related_id, relation_type, qty, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  relations.forEach((entry, position) => {
    relation.run(seq, position, entry.productId, entry.relationType, entry.qty, entry.note ?? null);
  });
  const visibility = statement(
    db,
    'INSERT INTO product_channel_visibility (channel_id, product_seq, visible) VALUES (?, ?, ?)',
  );
  for (const [slug, visible] of Object.entries(input.webVisibility ?? {})) {
    visibility.run(look.channel(slug), seq, visible ? 1 : 0);
  }
  return seq;
}

/**
 * Inserts the products of checked batches whose ids are new, with their relations and channel
 * values, inside the caller's transaction stamped `ts`, and nothing they imply: the caller has
 * suspended the insert triggers and derives their rows afterwards (derive-new-rows.ts). Brands are
 * created in input order, as the per-product path creates them.
 */
export function newProductInserter(db: DatabaseSync, ts: number): (batch: CheckedBatch) => InsertedBatch {
  const look = lookups(db, ts);
  return ({ raw, products }) => {
    for (const { input } of products) look.brand(input);
    const existing = new Set(
      (
        statement(db, 'SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?))').all(
          JSON.stringify(products.map((product) => product.id)),
        ) as Array<{ id: string }>
      ).map((row) => row.id),
    );
    const seen = new Set<string>();
    const inserted: InsertedBatch = { first: 0, last: 0, created: 0, later: [] };
    products.forEach((product, index) => {
      const { id } = product;
      if (existing.has(id) || seen.has(id)) {
        inserted.later.push({ ...(raw[index] as ProductInput), id });
        return;
      }
      seen.add(id);
      inserted.last = insertNew(db, product, ts, look);
      if (inserted.first === 0) inserted.first = inserted.last;
    });
    inserted.created = seen.size;
    return inserted;
  };
}
