import type pg from 'pg';
import type { CatalogueSnapshot } from '../../../ports/catalog-store.ts';
import { insertSnapshotReferences } from '../../../records/snapshot-references.ts';
import { inWriteTransaction } from '../transaction.ts';
import { catalogueIsEmpty, loadEmptyCatalogue } from './load-empty-catalogue.ts';
import { runInWriteTransaction } from './postgres-record-engine.ts';

/**
 * The snapshot's channels, brands and products in one transaction, only when the catalogue has no
 * product once the write clock is taken: processes racing at first start take turns on that lock,
 * and each after the first finds the products the first committed. Channels and brands already
 * there are kept. Returns whether it loaded.
 */
export async function loadIfEmpty(pool: pg.Pool, snapshot: CatalogueSnapshot): Promise<boolean> {
  return inWriteTransaction(pool, async (client, ts) => {
    if (!(await catalogueIsEmpty(client))) return false;
    await runInWriteTransaction(client, ts, insertSnapshotReferences(snapshot, ts));
    await loadEmptyCatalogue(client, ts, snapshot.products, {});
    return true;
  });
}
