import { storedSyncTokenSecret } from '@catalog/store/sqlite';
import { openDatabase } from '@catalog/store/sqlite-reading';
import { catalogSearchOver } from '../../engine/catalog-search-over-engine.ts';
import { openReplicaFile, type ReplicaSource } from '../sqlite-replica/open-replica-file.ts';
import type { SearchReplica } from '../sqlite-replica/open-sqlite-replica-search.ts';
import { BitmapEngine } from './bitmap-engine.ts';
import { CatalogueFile } from './catalogue-file.ts';

/**
 * Snapshot parts small enough to die young: parts of 5,000 records (some 25 MB of objects) were
 * promoted to V8's old space while the index grew, which then held 830 MB for 240 MB of index at
 * 1M products; parts of 500, 440 MB, and the load was faster.
 */
const SNAPSHOT_BATCH_SIZE = 500;

export interface BitmapSearchOptions {
  /** Bytes of repeated first-offset search pages kept (paging/page-cache.ts); 0 or absent: none. */
  searchPageCacheBytes?: number;
  /** Signs syncTokens: the deployment's key; absent, the key the catalogue file was created with. */
  syncTokenSecret?: Uint8Array;
}

function storedSecret(databasePath: string): Uint8Array {
  const db = openDatabase(databasePath, { readOnly: true });
  try {
    return storedSyncTokenSecret(db);
  } finally {
    db.close();
  }
}

/**
 * The bitmap engine over the embedded records' own file: the index follows that file's change
 * feed, and pages are read from the file. Built from a snapshot of the records at every start.
 */
export async function openBitmapSearchOverRecords(
  databasePath: string,
  options: BitmapSearchOptions,
): Promise<SearchReplica> {
  const file = new CatalogueFile(databasePath, 'records');
  const engine = new BitmapEngine(file, null, 0);
  const { close, ...search } = catalogSearchOver(engine, {
    syncTokenSecret: options.syncTokenSecret ?? storedSecret(databasePath),
    ...(options.searchPageCacheBytes === undefined ? {} : { pageCacheBytes: options.searchPageCacheBytes }),
  });
  return { search, target: engine.target, snapshotBatchSize: SNAPSHOT_BATCH_SIZE, close };
}

/**
 * The bitmap engine beside a replica file (PostgreSQL records): the target writes each batch of the
 * feed into the file, then into the index, so the two are in step and pages are read from the file.
 * The index starts empty at every start: a kept file is rebuilt from (a new snapshot is loaded).
 */
export async function openBitmapSearchOverReplica(
  databasePath: string,
  source: ReplicaSource,
  options: BitmapSearchOptions,
): Promise<SearchReplica> {
  const replica = await openReplicaFile(databasePath, source);
  // A kept replica file would be continued from its position, but the index starts empty: both are
  // rebuilt from one snapshot so that they hold the same state.
  await replica.close();
  const { rmSync } = await import('node:fs');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
  const fresh = await openReplicaFile(databasePath, source);
  const file = new CatalogueFile(databasePath, 'replica');
  const engine = new BitmapEngine(file, fresh.target, 0);
  const { close, ...search } = catalogSearchOver(engine, {
    syncTokenSecret: options.syncTokenSecret ?? storedSyncTokenSecret(fresh.db),
    ...(options.searchPageCacheBytes === undefined ? {} : { pageCacheBytes: options.searchPageCacheBytes }),
  });
  return {
    search,
    target: engine.target,
    snapshotBatchSize: SNAPSHOT_BATCH_SIZE,
    close: async () => {
      await close();
      await fresh.close();
    },
  };
}
