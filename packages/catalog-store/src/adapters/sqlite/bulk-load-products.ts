import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { importBatchEvent } from '../../audit/product-events.ts';
import { ValidationError } from '../../errors/request-errors.ts';
import type { AuditContext } from '../../model/audit-event.ts';
import type { ProductInput } from '../../model/product.ts';
import type { UpsertSummary } from '../../ports/product-store.ts';
import { assertProductInput } from '../../validation/product-input.ts';
import { appendAuditEvent } from './sqlite-audit-log.ts';
import { statement } from './statement-cache.ts';
import { nextWriteTimestamp } from './timestamps.ts';
import { inWriteTransaction } from './transaction.ts';
import { type BrandRef, resolveBrand } from './write-brand.ts';
import { INSERT_SQL, rowValues, writeProduct } from './write-product.ts';

/**
 * The triggers that fire when a product or a relation row is inserted (migrations 2, 4, 5, 6). A bulk
 * load drops them inside its transaction, inserts the new rows, does their work once for the whole
 * batch in set-based statements (`deriveForNewRows`), and creates them again, from the text they were
 * stored with, before anything else is written: no other connection ever sees the schema without
 * them (the transaction holds the write lock, and a rollback restores them).
 */
const INSERT_TRIGGERS = [
  'products_fts_insert',
  'products_facets_insert',
  'products_facet_combination_insert',
  'products_document_insert',
  'product_relations_document_insert',
] as const;

const FTS_TEXT = ['name', 'description', 'product_code', 'erp_code'] as const;
const FTS_COLUMNS = [...FTS_TEXT, ...FTS_TEXT.map((column) => `archived_${column}`)].join(', ');
const FACETS = [
  ['brandName', 'brand_name'],
  ['category', 'category'],
  ['department', 'department'],
  ['stockType', 'stock_type'],
] as const;
const FACET_COLUMNS = FACETS.map(([, column]) => column);

/** Rows with seq in [?1, ?2]: the products this load inserted, and nothing else. */
const NEW_ROWS = 'seq BETWEEN ?1 AND ?2';
/** Products that an inserted relation row names, and products whose relations name an inserted product. */
const RELATION_ENDS = `
  SELECT p.seq FROM product_relations r JOIN products p ON p.id = r.related_id WHERE r.product_seq BETWEEN ?1 AND ?2
  UNION
  SELECT r.product_seq FROM products p JOIN product_relations r ON r.related_id = p.id WHERE p.seq BETWEEN ?1 AND ?2`;

/** What the insert triggers would have done, row by row, for the products with seq in [first, last]. */
const DERIVE_FOR_NEW_ROWS = [
  // products_fts_insert: the text through the same view the index reads (live or archived columns).
  `INSERT INTO product_fts (rowid, ${FTS_COLUMNS}) SELECT seq, ${FTS_COLUMNS} FROM product_fts_source WHERE ${NEW_ROWS} ORDER BY seq`,
  // products_facets_insert: one more product per facet value.
  ...FACETS.map(
    ([facet, column]) => `INSERT INTO facet_counts (facet, value, archived, n)
      SELECT '${facet}', ${column} COLLATE BINARY, archived, count(*) FROM products WHERE ${NEW_ROWS}
      GROUP BY ${column} COLLATE BINARY, archived
      ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  ),
  // products_facet_combination_insert: new combinations in order of first appearance, then each
  // product's combination stamped with the next clock value, in seq order.
  `INSERT INTO facet_combinations (${FACET_COLUMNS.join(', ')})
    SELECT ${FACET_COLUMNS.join(', ')} FROM products WHERE ${NEW_ROWS} ORDER BY seq ON CONFLICT DO NOTHING`,
  `INSERT INTO product_facets (seq, combination, changed)
    SELECT p.seq, c.id, (SELECT n FROM product_facets_clock) + row_number() OVER (ORDER BY p.seq)
    FROM products p JOIN facet_combinations c ON ${FACET_COLUMNS.map((column) => `c.${column} = p.${column} COLLATE BINARY`).join(' AND ')}
    WHERE p.${NEW_ROWS}`,
  `UPDATE product_facets_clock SET n = n + (SELECT count(*) FROM products WHERE ${NEW_ROWS})`,
  // products_document_insert and product_relations_document_insert: the new products, the targets
  // of their relations and the owners of relations naming them lose their documents, which the
  // writer rebuilds before the commit (transaction.ts).
  `DELETE FROM product_documents WHERE seq IN (${RELATION_ENDS})`,
  `INSERT INTO product_documents_stale (seq) SELECT seq FROM products WHERE ${NEW_ROWS} ON CONFLICT DO NOTHING`,
  `INSERT INTO product_documents_stale (seq) SELECT seq FROM (${RELATION_ENDS}) WHERE true ON CONFLICT DO NOTHING`,
];

/**
 * write-product.ts's relation bump for new products: every product they relate to takes the write's
 * updatedAt (its "used by" entries changed). The update triggers are in place and queue its document.
 */
const BUMP_TARGETS = `UPDATE products SET updated_at = ?3
  WHERE id IN (SELECT related_id FROM product_relations WHERE product_seq BETWEEN ?1 AND ?2) AND updated_at < ?3`;

/**
 * Page cache of a connection that bulk loads, in KiB (the connection's default is 64 MiB). A batch
 * of 10,000 products dirties pages all over the fifteen indexes of `products`; when they do not fit,
 * SQLite spills them to the WAL before the commit and writes them again. Kept once raised: the
 * connections that bulk load are the operator CLI's, which exit when done.
 */
const BULK_CACHE_KIB = 256 * 1024;

function raiseCache(db: DatabaseSync): void {
  const { cache_size: current } = db.prepare('PRAGMA cache_size').get() as { cache_size: number };
  const kib = current < 0 ? -current : (current * 4096) / 1024;
  if (kib < BULK_CACHE_KIB) db.exec(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
}

function suspendInsertTriggers(db: DatabaseSync): string[] {
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN ('products', 'product_relations')`,
    )
    .all() as Array<{ name: string; sql: string }>;
  const onInsert = rows.filter((row) => /\bAFTER\s+INSERT\s+ON\b/i.test(row.sql));
  const known = new Set<string>(INSERT_TRIGGERS);
  const unknown = onInsert.filter((row) => !known.has(row.name)).map((row) => row.name);
  if (unknown.length > 0 || onInsert.length !== INSERT_TRIGGERS.length) {
    // A migration added or renamed an insert trigger: bulk loading must learn what it does first.
    throw new Error(`bulk load does not know the insert triggers ${unknown.join(', ') || '(some missing)'}`);
  }
  for (const row of onInsert) db.exec(`DROP TRIGGER ${row.name}`);
  return onInsert.map((row) => row.sql);
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
 * `ProductStore.bulkLoad` on SQLite: the same result as `writeProductBatch` (upsertMany) for the same
 * inputs, in one transaction, all or nothing, with the same audit event; made for batches of
 * thousands of mostly new products. Every input is checked against the contract's schema before the
 * write lock is taken. Products whose id is new are inserted with the insert triggers suspended and
 * their derived rows (full-text index, facet counts and combinations, stale search documents,
 * related products' updatedAt) written once for the batch; the rest (ids that exist, an id given
 * twice) take the per-product path afterwards, triggers back in place. The stored search
 * documents are rebuilt before the commit as for any write.
 */
export function bulkLoadProducts(
  db: DatabaseSync,
  inputs: readonly ProductInput[],
  audit?: AuditContext,
): UpsertSummary {
  const checked = inputs.map((raw) => assertProductInput(raw));
  const ids = checked.map((input) => (input.id ?? randomUUID()).toLowerCase());
  raiseCache(db);
  return inWriteTransaction(db, () => {
    const ts = nextWriteTimestamp(db);
    const look = lookups(db, ts);
    // Brands are created in input order, as the per-product path creates them.
    for (const input of checked) look.brand(input);
    const existing = new Set(
      (
        statement(db, 'SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?))').all(
          JSON.stringify(ids),
        ) as Array<{ id: string }>
      ).map((row) => row.id),
    );
    const seen = new Set<string>();
    const later: number[] = [];
    let first = 0;
    let last = 0;
    const saved = suspendInsertTriggers(db);
    checked.forEach((input, index) => {
      const id = ids[index] as string;
      if (existing.has(id) || seen.has(id)) {
        later.push(index);
        return;
      }
      seen.add(id);
      last = insertNew(db, id, input, ts, look);
      if (first === 0) first = last;
    });
    if (first !== 0) {
      for (const sql of DERIVE_FOR_NEW_ROWS) statement(db, sql).run(first, last);
    }
    for (const sql of saved) db.exec(sql);
    if (first !== 0) statement(db, BUMP_TARGETS).run(first, last, ts);
    let created = seen.size;
    for (const index of later) {
      const input = { ...(inputs[index] as ProductInput), id: ids[index] as string };
      if (writeProduct(db, input, ts, 'upsert').created) created += 1;
    }
    const summary = { created, updated: inputs.length - created };
    if (audit !== undefined) appendAuditEvent(db, importBatchEvent(audit, summary));
    return summary;
  });
}
