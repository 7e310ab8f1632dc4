import type { DatabaseSync } from 'node:sqlite';
import { importBatchEvent } from '../../../audit/product-events.ts';
import type { ProductInput } from '../../../model/product.ts';
import type { BulkLoadOptions, ProductBatches, UpsertSummary } from '../../../ports/product-store.ts';
import { checkBatch } from '../../../write-rules/product-batch.ts';
import { statement } from '../statement-cache.ts';
import { transactionTime } from '../transaction.ts';
import { writeSearchDocuments } from '../write-search-documents.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import { APPEND_NEW_CHANGES, COUNT_NEW_FACETS, INDEX_NEW_TEXT } from './derive-new-rows.ts';
import { newProductInserter } from './insert-new-products.ts';
import { restoreSchemaObjects, suspendInsertTriggers } from './insert-triggers.ts';
import { dropSecondaryIndexes } from './secondary-indexes.ts';
import { writeProduct } from './write-product.ts';

/**
 * Page cache for a load into an empty catalogue, in KiB. Nothing commits until the end, so every
 * page the load dirties stays in the cache or is spilled to the WAL, and a spilled page is read back
 * through the WAL, one system call a page, by each index build, the full-text pass and the documents.
 * 1M products make some 0.9 GB of rows that are read again; pages are allocated as used, so a
 * smaller load takes less.
 */
export const EMPTY_LOAD_CACHE_KIB = 2 * 1024 * 1024;

export function catalogueIsEmpty(db: DatabaseSync): boolean {
  return statement(db, 'SELECT 1 FROM products LIMIT 1').get() === undefined;
}

/**
 * The whole load of an empty catalogue, inside the caller's one write transaction: the rows of
 * every batch with the insert triggers and the secondary indexes dropped, then each index built
 * once, the full-text rows, facet tables, change-feed entries and documents derived once, and the
 * triggers and indexes created again from their stored text. Every product gets the transaction's
 * one updatedAt, as one upsertMany of them all would give. Ids that came earlier in the load are
 * written last, through the per-product path with everything in place, in the order given.
 *
 * Why one transaction: the schema is without its indexes and triggers only inside it, so no other
 * connection can see or write the catalogue in that state, and an interrupted load (an error, a
 * kill -9, a power cut) rolls back to the empty catalogue with its whole schema; there is nothing
 * to repair when the database is next opened. The price: other writers wait for the load (their
 * busy timeout may expire) and readers see the catalogue empty until it commits, all at once.
 */
export async function loadEmptyCatalogue(
  db: DatabaseSync,
  batches: ProductBatches,
  options: BulkLoadOptions,
): Promise<UpsertSummary> {
  const ts = transactionTime(db);
  const insert = newProductInserter(db, ts);
  const triggers = suspendInsertTriggers(db);
  const indexes = dropSecondaryIndexes(db);
  const later: ProductInput[] = [];
  const total = { created: 0, updated: 0 };
  for await (const inputs of batches) {
    const inserted = insert(checkBatch(inputs));
    later.push(...inserted.later);
    const summary = { created: inserted.created, updated: inputs.length - inserted.created };
    total.created += summary.created;
    total.updated += summary.updated;
    if (options.audit !== undefined) appendAuditEvent(db, importBatchEvent(options.audit, summary));
    options.onBatch?.({ ...summary, committed: false });
  }
  restoreSchemaObjects(db, indexes);
  const { first, last } = statement(db, 'SELECT min(seq) AS first, max(seq) AS last FROM products').get() as {
    first: number | null;
    last: number | null;
  };
  if (first !== null && last !== null) {
    for (const sql of [INDEX_NEW_TEXT, ...COUNT_NEW_FACETS, APPEND_NEW_CHANGES])
      statement(db, sql).run(first, last);
    // Every product is new, so every document is missing: written straight from the range, with no
    // relation end to look for and no round trip through the stale queue.
    writeSearchDocuments(db, first, last);
  }
  restoreSchemaObjects(db, triggers);
  for (const input of later) writeProduct(db, input, ts, 'upsert');
  return total;
}
