import type { DatabaseSync } from 'node:sqlite';
import { importBatchEvent } from '../../../audit/product-events.ts';
import type { AuditContext } from '../../../model/audit-event.ts';
import type { ProductInput } from '../../../model/product.ts';
import type { UpsertSummary } from '../../../ports/product-store.ts';
import { checkBatch } from '../../../write-rules/product-batch.ts';
import { statement } from '../statement-cache.ts';
import { inWriteTransaction, transactionTime } from '../transaction.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import {
  APPEND_NEW_CHANGES,
  BUMP_RELATION_TARGETS,
  COUNT_NEW_FACETS,
  INDEX_NEW_TEXT,
  QUEUE_NEW_DOCUMENTS,
} from './derive-new-rows.ts';
import { newProductInserter } from './insert-new-products.ts';
import { restoreSchemaObjects, suspendInsertTriggers } from './insert-triggers.ts';
import { BATCH_LOAD_CACHE_KIB, raiseCacheForLoad } from './load-cache.ts';
import { writeProduct } from './write-product.ts';

const DERIVE_FOR_NEW_ROWS = [INDEX_NEW_TEXT, ...COUNT_NEW_FACETS, ...QUEUE_NEW_DOCUMENTS, APPEND_NEW_CHANGES];

/**
 * `ProductStore.bulkLoad` on SQLite: the same result as upsertMany (`upsertProducts`,
 * src/records/product-records.ts) for the same inputs, in one transaction, all or nothing, with the same audit event; made for batches of
 * thousands of mostly new products. Every input is checked against the contract's schema before the
 * write lock is taken. Products whose id is new are inserted with the insert triggers suspended and
 * their derived rows (full-text index, facet counts and combinations, stale search documents,
 * change-feed entries, related products' updatedAt) written once for the batch; the rest (ids that
 * exist, an id given twice) take the per-product path afterwards, triggers back in place. The
 * stored search documents are rebuilt before the commit as for any write.
 */
export function bulkLoadProducts(
  db: DatabaseSync,
  inputs: readonly ProductInput[],
  audit?: AuditContext,
): UpsertSummary {
  const batch = checkBatch(inputs);
  raiseCacheForLoad(db, BATCH_LOAD_CACHE_KIB);
  return inWriteTransaction(db, () => {
    const ts = transactionTime(db);
    const insert = newProductInserter(db, ts);
    const triggers = suspendInsertTriggers(db);
    const { first, last, created, later } = insert(batch);
    if (first !== 0) {
      for (const sql of DERIVE_FOR_NEW_ROWS) statement(db, sql).run(first, last);
    }
    restoreSchemaObjects(db, triggers);
    if (first !== 0) statement(db, BUMP_RELATION_TARGETS).run(first, last, ts);
    let createdLater = 0;
    for (const input of later) if (writeProduct(db, input, ts, 'upsert').created) createdLater += 1;
    const summary = { created: created + createdLater, updated: inputs.length - created - createdLater };
    if (audit !== undefined) appendAuditEvent(db, importBatchEvent(audit, summary));
    return summary;
  });
}
