import type { DatabaseSync } from 'node:sqlite';
import type { BulkLoadOptions, ProductBatches, UpsertSummary } from '../../../ports/product-store.ts';
import { inLongWriteTransaction } from '../transaction.ts';
import { bulkLoadProducts } from './bulk-load-products.ts';
import { raiseCacheForLoad } from './load-cache.ts';
import { catalogueIsEmpty, EMPTY_LOAD_CACHE_KIB, loadEmptyCatalogue } from './load-empty-catalogue.ts';

/**
 * `ProductStore.bulkLoadAll` on SQLite: an empty catalogue is loaded in one transaction
 * (load-empty-catalogue.ts); any other takes `bulkLoad` batch by batch, each committed.
 */
export async function bulkLoadBatches(
  db: DatabaseSync,
  batches: ProductBatches,
  options: BulkLoadOptions = {},
): Promise<UpsertSummary> {
  const loaded = await inLongWriteTransaction(db, async () => {
    if (!catalogueIsEmpty(db)) return undefined;
    raiseCacheForLoad(db, EMPTY_LOAD_CACHE_KIB);
    return loadEmptyCatalogue(db, batches, options);
  });
  if (loaded !== undefined) {
    // The one transaction went through the WAL, which SQLite leaves as large as the catalogue
    // (gigabytes at 1M products) once its pages are copied back; this copies and truncates it.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return loaded;
  }
  const total = { created: 0, updated: 0 };
  for await (const inputs of batches) {
    const summary = bulkLoadProducts(db, inputs, options.audit);
    total.created += summary.created;
    total.updated += summary.updated;
    options.onBatch?.({ ...summary, committed: true });
  }
  return total;
}
