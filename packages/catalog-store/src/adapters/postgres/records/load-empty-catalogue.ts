import type pg from 'pg';
import { importBatchEvent } from '../../../audit/product-events.ts';
import type { BulkLoadOptions, ProductBatches, UpsertSummary } from '../../../ports/product-store.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import { checkedAhead } from './checked-batches.ts';
import { productBatchWriter } from './product-batch-writer.ts';
import { LOADED_TABLES, refreshStatistics } from './refresh-statistics.ts';

export async function catalogueIsEmpty(client: pg.PoolClient): Promise<boolean> {
  const result = await client.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM products) AS empty',
  );
  return result.rows[0]?.empty === true;
}

/**
 * Every batch of a load into an empty catalogue, inside the caller's one write transaction stamped
 * `ts`: all or nothing, and every product gets that one updatedAt, as one upsertMany of them all
 * would give. Readers see the catalogue empty until the commit; other writers wait for it.
 */
export async function loadEmptyCatalogue(
  client: pg.PoolClient,
  ts: number,
  batches: ProductBatches,
  options: BulkLoadOptions,
): Promise<UpsertSummary> {
  const write = productBatchWriter(client, ts);
  const total = { created: 0, updated: 0 };
  for await (const batch of checkedAhead(batches)) {
    const summary = await write(batch);
    total.created += summary.created;
    total.updated += summary.updated;
    if (options.audit !== undefined)
      await appendAuditEvent(client, importBatchEvent(options.audit, summary), ts);
    options.onBatch?.({ ...summary, committed: false });
  }
  await refreshStatistics(client, LOADED_TABLES);
  return total;
}
