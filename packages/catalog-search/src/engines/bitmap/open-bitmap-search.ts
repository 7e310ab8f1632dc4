import { catalogSearchOver } from '../../engine/catalog-search-over-engine.ts';
import {
  openReplicaFile,
  type ReplicaSource,
  removeReplicaFile,
} from '../sqlite-replica/open-replica-file.ts';
import type { SearchReplica } from '../sqlite-replica/open-sqlite-replica-search.ts';
import { type AlongsideIndex, BitmapEngine } from './bitmap-engine.ts';
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

/** The engine over `file` as the follower's target and the neutral search, with what closes both. */
function bitmapReplica(
  file: CatalogueFile,
  alongside: AlongsideIndex | null,
  options: BitmapSearchOptions,
  closeAlso: () => Promise<void>,
): SearchReplica {
  const engine = new BitmapEngine(file, alongside);
  const { close, ...search } = catalogSearchOver(engine, {
    syncTokenSecret: options.syncTokenSecret ?? file.storedSyncTokenSecret(),
    ...(options.searchPageCacheBytes === undefined ? {} : { pageCacheBytes: options.searchPageCacheBytes }),
  });
  return {
    search,
    target: engine.target,
    snapshotBatchSize: SNAPSHOT_BATCH_SIZE,
    close: async () => {
      await close();
      await closeAlso();
    },
  };
}

/**
 * The bitmap engine over the embedded records' own file: the index follows that file's change
 * feed, and pages are read from the file. Built from a snapshot of the records at every start.
 */
export async function openBitmapSearchOverRecords(
  databasePath: string,
  options: BitmapSearchOptions,
): Promise<SearchReplica> {
  return bitmapReplica(new CatalogueFile(databasePath, 'records'), null, options, async () => undefined);
}

/**
 * The bitmap engine beside a replica file (PostgreSQL records): the target writes each batch of the
 * feed into the file, then into the index, so the two are in step and pages are read from the file.
 * The index starts empty at every start, so a kept file is not continued: both are built from one
 * snapshot, so that they hold the same state.
 */
export async function openBitmapSearchOverReplica(
  databasePath: string,
  source: ReplicaSource,
  options: BitmapSearchOptions,
): Promise<SearchReplica> {
  removeReplicaFile(databasePath);
  const replica = await openReplicaFile(databasePath, source);
  return bitmapReplica(new CatalogueFile(databasePath, 'replica'), replica.target, options, () =>
    replica.close(),
  );
}
