import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { NotFoundError, ValidationError } from '../../errors/request-errors.ts';
import type { ProductInput, RelatedProductInput } from '../../model/product.ts';
import { identifierKey } from '../../search/identifier-key.ts';
import { assertProductInput } from '../../validation/product-input.ts';
import { columnOf, PLAIN_FIELDS, WRITTEN_COLUMNS } from '../product-columns.ts';
import { statement } from './statement-cache.ts';
import { type BrandRef, resolveBrand } from './write-brand.ts';

export type WriteMode = 'create' | 'replace' | 'upsert';

export interface WrittenProduct {
  seq: number;
  id: string;
  created: boolean;
}

export const INSERT_SQL = `INSERT INTO products (id, created_at, ${WRITTEN_COLUMNS.join(', ')})
  VALUES (?, ?, ${WRITTEN_COLUMNS.map(() => '?').join(', ')}) RETURNING seq`;
export const UPDATE_SQL = `UPDATE products SET ${WRITTEN_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE seq = ?`;

const TEXT_DEFAULT = '';
type SqlValue = string | number | null;

function plainValue(input: ProductInput, field: (typeof PLAIN_FIELDS)[number]): SqlValue {
  const value = input[field];
  if (value !== undefined) return value;
  if (field === 'length' || field === 'height' || field === 'width' || field === 'weight') return 0;
  if (
    field === 'price' ||
    field === 'retailPrice' ||
    field === 'supplierCost' ||
    field === 'costPrice' ||
    field === 'marginPercent'
  ) {
    return null;
  }
  return TEXT_DEFAULT;
}

/** The written columns' values (WRITTEN_COLUMNS order) of a checked input and its resolved brand. */
export function rowValues(input: ProductInput, brand: BrandRef | null, ts: number): SqlValue[] {
  const displayOnWeb = input.displayOnWeb ?? null;
  return [
    ...PLAIN_FIELDS.map((field) => plainValue(input, field)),
    identifierKey(input.productCode),
    identifierKey(input.erpCode ?? ''),
    brand?.seq ?? null,
    brand?.name ?? '',
    brand?.slug ?? '',
    input.imageUrl ?? null,
    JSON.stringify(input.images ?? []),
    JSON.stringify(input.documents ?? []),
    JSON.stringify(input.spares ?? []),
    input.status ?? 'active',
    input.archived === true ? 1 : 0,
    displayOnWeb === null ? null : displayOnWeb ? 1 : 0,
    ts,
  ];
}

function relationSignature(
  entries: ReadonlyArray<Pick<RelatedProductInput, 'productId' | 'relationType' | 'qty'>>,
) {
  const byTarget = new Map<string, string>();
  for (const entry of entries) {
    byTarget.set(
      entry.productId,
      `${byTarget.get(entry.productId) ?? ''}|${entry.relationType}:${entry.qty}`,
    );
  }
  return byTarget;
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
  const before = relationSignature(previous);
  const after = relationSignature(relations);
  const touched = [...new Set([...before.keys(), ...after.keys()])].filter(
    (id) => before.get(id) !== after.get(id),
  );
  if (touched.length > 0) {
    statement(
      db,
      'UPDATE products SET updated_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND updated_at < ?',
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
    if (channel === undefined)
      throw new ValidationError(`webVisibility.${slug}`, 'is not a registered web channel');
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
  const input = assertProductInput(raw);
  const id = (input.id ?? randomUUID()).toLowerCase();
  const relations = (input.relatedProducts ?? []).map((relation) => ({
    ...relation,
    productId: relation.productId.toLowerCase(),
  }));
  const existing = statement(db, 'SELECT seq FROM products WHERE id = ?').get(id) as
    | { seq: number }
    | undefined;
  if (mode === 'create' && existing !== undefined)
    throw new ValidationError('id', 'a product with this id exists');
  if (mode === 'replace' && existing === undefined) throw new NotFoundError('Product', id);
  const values = rowValues(input, resolveBrand(db, input.brandName, input.brandSlug, ts), ts);
  let seq: number;
  if (existing === undefined) {
    const createdAt = input.createdAt === undefined ? ts : Date.parse(input.createdAt);
    seq = (statement(db, INSERT_SQL).get(id, createdAt, ...values) as { seq: number }).seq;
  } else {
    seq = existing.seq;
    statement(db, UPDATE_SQL).run(...values, seq);
  }
  if (relations.some((relation) => relation.productId === id)) {
    throw new ValidationError('relatedProducts', 'a product cannot relate to itself');
  }
  writeRelations(db, seq, relations, ts);
  writeVisibility(db, seq, input.webVisibility ?? {});
  return { seq, id, created: existing === undefined };
}
