import type { DatabaseSync } from 'node:sqlite';
import type { ProductInput, RelatedProductInput } from '../../../model/product.ts';
import { resolveBrand } from '../../../records/brand-records.ts';
import type { BrandRef } from '../../../write-rules/brand-rules.ts';
import { changedRelationTargets } from '../../../write-rules/changed-relation-targets.ts';
import {
  checkWriteMode,
  createdAtOf,
  prepareProduct,
  type WriteMode,
  type WrittenProduct,
} from '../../../write-rules/product-write.ts';
import { unregisteredChannel } from '../../../write-rules/record-rules.ts';
import { WRITTEN_COLUMNS, writtenValues } from '../../product-columns.ts';
import { statement } from '../statement-cache.ts';
import { runOn } from './sqlite-record-engine.ts';

export const INSERT_SQL = `INSERT INTO products (id, created_at, ${WRITTEN_COLUMNS.join(', ')})
  VALUES (?, ?, ${WRITTEN_COLUMNS.map(() => '?').join(', ')}) RETURNING seq`;
export const UPDATE_SQL = `UPDATE products SET ${WRITTEN_COLUMNS.map((column) => `${column} = ?`).join(', ')}, version = version + 1 WHERE seq = ?`;

type SqlValue = string | number | null;

/** `writtenValues` as SQLite binds them: booleans are stored as 0 and 1. */
export function rowValues(input: ProductInput, brand: BrandRef | null, ts: number): SqlValue[] {
  return writtenValues(input, brand, ts).map((value) => (typeof value === 'boolean' ? Number(value) : value));
}

/**
 * Replaces the stored forward relations. Products whose derived "used by" view changed get the
 * write's updatedAt too, so an incremental sync sees their new reverse entries.
 */
function writeRelations(
  db: DatabaseSync,
  seq: number,
  relations: readonly RelatedProductInput[],
  ts: number,
) {
  const previous = statement(
    db,
    'SELECT related_id AS productId, relation_type AS relationType, qty FROM product_relations WHERE product_seq = ? ORDER BY position',
  ).all(seq) as unknown as RelatedProductInput[];
  statement(db, 'DELETE FROM product_relations WHERE product_seq = ?').run(seq);
  const insert = statement(
    db,
    'INSERT INTO product_relations (product_seq, position, related_id, relation_type, qty, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  relations.forEach((relation, position) => {
    insert.run(seq, position, relation.productId, relation.relationType, relation.qty, relation.note ?? null);
  });
  const touched = changedRelationTargets(previous, relations);
  if (touched.length > 0) {
    statement(
      db,
      'UPDATE products SET updated_at = ?, version = version + 1 WHERE id IN (SELECT value FROM json_each(?)) AND updated_at < ?',
    ).run(ts, JSON.stringify(touched), ts);
  }
}

function writeVisibility(db: DatabaseSync, seq: number, visibility: Record<string, boolean>) {
  statement(db, 'DELETE FROM product_channel_visibility WHERE product_seq = ?').run(seq);
  const insert = statement(
    db,
    'INSERT INTO product_channel_visibility (channel_id, product_seq, visible) VALUES (?, ?, ?)',
  );
  for (const [slug, visible] of Object.entries(visibility)) {
    const channel = statement(db, 'SELECT id FROM web_channels WHERE slug = ?').get(slug) as
      | { id: number }
      | undefined;
    if (channel === undefined) throw unregisteredChannel(`webVisibility.${slug}`);
    insert.run(channel.id, seq, visible ? 1 : 0);
  }
}

/** Writes one product inside the caller's transaction, stamping it with the transaction's `ts`. */
export function writeProduct(
  db: DatabaseSync,
  raw: ProductInput,
  ts: number,
  mode: WriteMode,
): WrittenProduct {
  const { input, id, relations } = prepareProduct(raw);
  const existing = statement(db, 'SELECT seq FROM products WHERE id = ?').get(id) as
    | { seq: number }
    | undefined;
  checkWriteMode(mode, id, existing !== undefined);
  const values = rowValues(input, runOn(db, resolveBrand(input.brandName, input.brandSlug, ts)), ts);
  let seq: number;
  if (existing === undefined) {
    seq = (statement(db, INSERT_SQL).get(id, createdAtOf(input, ts), ...values) as { seq: number }).seq;
  } else {
    seq = existing.seq;
    statement(db, UPDATE_SQL).run(...values, seq);
  }
  writeRelations(db, seq, relations, ts);
  writeVisibility(db, seq, input.webVisibility ?? {});
  return { seq, id, created: existing === undefined };
}
