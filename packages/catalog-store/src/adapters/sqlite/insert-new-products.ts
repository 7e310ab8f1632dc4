import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { ValidationError } from '../../errors/request-errors.ts';
import type { ProductInput } from '../../model/product.ts';
import { assertProductInput } from '../../validation/product-input.ts';
import { statement } from './statement-cache.ts';
import { type BrandRef, resolveBrand } from './write-brand.ts';
import { INSERT_SQL, rowValues } from './write-product.ts';

/** A batch checked against the contract's schema, with the id each product is stored under. */
export interface CheckedBatch {
  raw: readonly ProductInput[];
  checked: ProductInput[];
  ids: string[];
}

/** Checks every input first: one bad record fails the batch before anything is written. */
export function checkBatch(inputs: readonly ProductInput[]): CheckedBatch {
  const checked = inputs.map((raw) => assertProductInput(raw));
  return { raw: inputs, checked, ids: checked.map((input) => (input.id ?? randomUUID()).toLowerCase()) };
}

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
        brand = resolveBrand(db, input.brandName, input.brandSlug, ts);
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
        if (row === undefined)
          throw new ValidationError(`webVisibility.${slug}`, 'is not a registered web channel');
        id = row.id;
        channels.set(slug, id);
      }
      return id;
    },
  };
}

/** Inserts one new product with its relations and channel values; returns its seq. */
function insertNew(db: DatabaseSync, id: string, input: ProductInput, ts: number, look: Lookups): number {
  const createdAt = input.createdAt === undefined ? ts : Date.parse(input.createdAt);
  const values = rowValues(input, look.brand(input), ts);
  const seq = (statement(db, INSERT_SQL).get(id, createdAt, ...values) as { seq: number }).seq;
  const relation = statement(
    db,
    'INSERT INTO product_relations (product_seq, position, related_id, relation_type, qty, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  (input.relatedProducts ?? []).forEach((entry, position) => {
    const target = entry.productId.toLowerCase();
    if (target === id) throw new ValidationError('relatedProducts', 'a product cannot relate to itself');
    relation.run(seq, position, target, entry.relationType, entry.qty, entry.note ?? null);
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
  return ({ raw, checked, ids }) => {
    for (const input of checked) look.brand(input);
    const existing = new Set(
      (
        statement(db, 'SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?))').all(
          JSON.stringify(ids),
        ) as Array<{ id: string }>
      ).map((row) => row.id),
    );
    const seen = new Set<string>();
    const inserted: InsertedBatch = { first: 0, last: 0, created: 0, later: [] };
    checked.forEach((input, index) => {
      const id = ids[index] as string;
      if (existing.has(id) || seen.has(id)) {
        inserted.later.push({ ...(raw[index] as ProductInput), id });
        return;
      }
      seen.add(id);
      inserted.last = insertNew(db, id, input, ts, look);
      if (inserted.first === 0) inserted.first = inserted.last;
    });
    inserted.created = seen.size;
    return inserted;
  };
}
