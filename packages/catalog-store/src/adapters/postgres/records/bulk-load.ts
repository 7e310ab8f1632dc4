import type pg from 'pg';
import { importBatchEvent } from '../../../audit/product-events.ts';
import type { AuditContext } from '../../../model/audit-event.ts';
import type { ProductInput } from '../../../model/product.ts';
import type { BulkLoadOptions, ProductBatches, UpsertSummary } from '../../../ports/product-store.ts';
import { type CheckedBatch, checkBatch } from '../../../write-rules/product-batch.ts';
import { inWriteTransaction } from '../transaction.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import { checkedAhead } from './checked-batches.ts';
import { catalogueIsEmpty, loadEmptyCatalogue } from './load-empty-catalogue.ts';
import { productBatchWriter } from './product-batch-writer.ts';

async function writeBatch(pool: pg.Pool, batch: CheckedBatch, audit?: AuditContext): Promise<UpsertSummary> {
  return inWriteTransaction(pool, async (client, ts) => {
    const summary = await productBatchWriter(client, ts)(batch);
    if (audit !== undefined) await appendAuditEvent(client, importBatchEvent(audit, summary), ts);
    return summary;
  });
}

/**
 * `ProductStore.bulkLoad` on PostgreSQL: one transaction, all or nothing, committing what
 * upsertMany commits for the same inputs (product-batch-writer.ts). Every input is checked against
 * the contract's schema before the write clock is taken.
 */
export async function bulkLoadProducts(
  pool: pg.Pool,
  inputs: readonly ProductInput[],
  audit?: AuditContext,
): Promise<UpsertSummary> {
  return writeBatch(pool, checkBatch(inputs), audit);
}

/**
 * `ProductStore.bulkLoadAll` on PostgreSQL: an empty catalogue, found so under the write clock, is
 * loaded in that one transaction (load-empty-catalogue.ts); any other takes `bulkLoad` batch by
 * batch, each committed, the next checked while one is written.
 */
export async function bulkLoadBatches(
  pool: pg.Pool,
  batches: ProductBatches,
  options: BulkLoadOptions = {},
): Promise<UpsertSummary> {
  const loaded = await inWriteTransaction(pool, async (client, ts) =>
    (await catalogueIsEmpty(client)) ? loadEmptyCatalogue(client, ts, batches, options) : undefined,
  );
  if (loaded !== undefined) return loaded;
  const total = { created: 0, updated: 0 };
  for await (const batch of checkedAhead(batches)) {
    const summary = await writeBatch(pool, batch, options.audit);
    total.created += summary.created;
    total.updated += summary.updated;
    options.onBatch?.({ ...summary, committed: true });
  }
  return total;
}
