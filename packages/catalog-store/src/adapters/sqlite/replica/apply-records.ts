import type { DatabaseSync } from 'node:sqlite';
import type { Brand } from '../../../model/brand.ts';
import type { ProductInput, ProductRecord } from '../../../model/product.ts';
import type { WebChannel } from '../../../model/web-channel.ts';
import type { BrandRef } from '../../../write-rules/brand-rules.ts';
import { WRITTEN_COLUMNS } from '../../product-columns.ts';
import { rowValues } from '../records/write-product.ts';
import { statement } from '../statement-cache.ts';
import { inWriteTransaction } from '../transaction.ts';

/** Records as the source store holds them now, to be written into the replica as they are. */
export interface ReplicatedRecords {
  webChannels: readonly WebChannel[];
  brands: readonly Brand[];
  products: readonly ProductRecord[];
}

const APPLIED_KEY = 'replica_applied_sequence';
const ORIGIN_KEY = 'replica_origin';

// A replica holds each record at the source's version: it never counts writes of its own.
export const INSERT_WITH_SEQ = `INSERT INTO products (seq, id, created_at, version, ${WRITTEN_COLUMNS.join(', ')})
  VALUES (?, ?, ?, ?, ${WRITTEN_COLUMNS.map(() => '?').join(', ')})`;
const REPLACE_AT_VERSION = `UPDATE products SET ${WRITTEN_COLUMNS.map((column) => `${column} = ?`).join(', ')},
  version = ? WHERE seq = ?`;

/** The change-feed sequence the replica has applied up to (0 for a new replica). */
export function appliedSequence(db: DatabaseSync): number {
  const row = statement(db, 'SELECT value FROM meta WHERE key = ?').get(APPLIED_KEY) as
    | { value: string }
    | undefined;
  return row === undefined ? 0 : Number(row.value);
}

/** The feed this replica was built from (ChangeFeed.origin), or undefined for a new replica. */
export function replicaOrigin(db: DatabaseSync): string | undefined {
  const row = statement(db, 'SELECT value FROM meta WHERE key = ?').get(ORIGIN_KEY) as
    | { value: string }
    | undefined;
  return row?.value;
}

export function setReplicaOrigin(db: DatabaseSync, origin: string): void {
  statement(
    db,
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(ORIGIN_KEY, origin);
}

export function applyChannel(db: DatabaseSync, channel: WebChannel): void {
  statement(
    db,
    `INSERT INTO web_channels (slug, name, created_at, version) VALUES (?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, version = excluded.version`,
  ).run(channel.slug, channel.name, Date.parse(channel.createdAt), channel.version);
}

/**
 * Brands are matched by id. A batch can swap names or slugs between brands (A renamed to B's old
 * name after B was renamed), which the unique columns would refuse midway, so the brands of the
 * batch first step aside to names no brand can have.
 */
export function applyBrands(db: DatabaseSync, brands: readonly Brand[]): void {
  const aside = statement(db, 'UPDATE brands SET name = char(0) || id, slug = char(0) || id WHERE id = ?');
  for (const brand of brands) aside.run(brand.id);
  const upsert = statement(
    db,
    `INSERT INTO brands (id, name, slug, archived, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, slug = excluded.slug,
       archived = excluded.archived, updated_at = excluded.updated_at, version = excluded.version`,
  );
  for (const brand of brands) {
    upsert.run(
      brand.id,
      brand.name,
      brand.slug,
      brand.archived ? 1 : 0,
      Date.parse(brand.createdAt),
      Date.parse(brand.updatedAt),
      brand.version,
    );
  }
}

function localBrand(db: DatabaseSync, record: ProductRecord): BrandRef | null {
  if (record.brandSlug === '') return null;
  const row = statement(db, 'SELECT seq FROM brands WHERE slug = ?').get(record.brandSlug) as
    | { seq: number }
    | undefined;
  // A brand the replica has not seen yet: the product keeps its brand's name and slug, which is
  // all a search reads; the brand's own feed entry fills the link in when it is applied.
  return { seq: row?.seq ?? (null as unknown as number), name: record.brandName, slug: record.brandSlug };
}

/** Inserts the record's forward relations; its "used by" entries are derived from other products'. */
export function insertForwardRelations(db: DatabaseSync, record: ProductRecord): void {
  const relation = statement(
    db,
    'INSERT INTO product_relations (product_seq, position, related_id, relation_type, qty, note) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let position = 0;
  for (const entry of record.relatedProducts) {
    if (entry.source === 'reverse') continue;
    relation.run(record.seq, position, entry.productId, entry.relationType, entry.qty, entry.note ?? null);
    position += 1;
  }
}

export function insertVisibility(db: DatabaseSync, record: ProductRecord): void {
  const visibility = statement(
    db,
    'INSERT INTO product_channel_visibility (channel_id, product_seq, visible) SELECT id, ?, ? FROM web_channels WHERE slug = ?',
  );
  for (const [slug, visible] of Object.entries(record.webVisibility))
    visibility.run(record.seq, visible ? 1 : 0, slug);
}

/** The record's column values as the source stored them (WRITTEN_COLUMNS order). */
export function replicatedValues(
  record: ProductRecord,
  brand: BrandRef | null,
): ReturnType<typeof rowValues> {
  return rowValues(record as unknown as ProductInput, brand, Date.parse(record.updatedAt));
}

function applyProduct(db: DatabaseSync, record: ProductRecord): void {
  const values = replicatedValues(record, localBrand(db, record));
  const existing = statement(db, 'SELECT seq FROM products WHERE id = ?').get(record.id) as
    | { seq: number }
    | undefined;
  if (existing === undefined) {
    statement(db, INSERT_WITH_SEQ).run(
      record.seq,
      record.id,
      Date.parse(record.createdAt),
      record.version,
      ...values,
    );
  } else {
    statement(db, REPLACE_AT_VERSION).run(...values, record.version, existing.seq);
  }
  statement(db, 'DELETE FROM product_relations WHERE product_seq = ?').run(record.seq);
  insertForwardRelations(db, record);
  statement(db, 'DELETE FROM product_channel_visibility WHERE product_seq = ?').run(record.seq);
  insertVisibility(db, record);
}

/** Records, in the caller's transaction, that the replica has applied the feed up to `sequence`. */
export function setAppliedSequence(db: DatabaseSync, sequence: number): void {
  statement(
    db,
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(APPLIED_KEY, String(sequence));
}

/**
 * Writes `records` into the replica exactly as the source holds them (ids, seq, times, relations
 * and visibility; no write rule runs again: the source applied them) and records that the feed is
 * applied up to `sequence`, all in one transaction. The triggers of the embedded engine keep its
 * search index, facets and stored documents true, as for any write.
 */
export function applyRecords(db: DatabaseSync, records: ReplicatedRecords, sequence: number): void {
  inWriteTransaction(db, () => {
    for (const channel of records.webChannels) applyChannel(db, channel);
    applyBrands(db, records.brands);
    for (const record of records.products) applyProduct(db, record);
    setAppliedSequence(db, sequence);
  });
}
