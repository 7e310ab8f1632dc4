import { availableParallelism } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { SqliteRecordStore } from '@catalog/store/sqlite';
import { storedSyncTokenSecret } from '@catalog/store/sqlite';
import { catalogSearchOver, type OpenedSearch } from '../../engine/catalog-search-over-engine.ts';
import { sqliteFts5Engine } from './sqlite-fts5-engine.ts';
import { type SearchPoolObserver, SearchWorkerPool } from './worker-pool.ts';

export interface SqliteFts5SearchOptions {
  /** Worker threads with read connections; default: the machine's parallelism, 2 to 4. */
  searchWorkers?: number;
  /** Budget of one search, queueing included (default 5000 ms). */
  searchTimeoutMs?: number;
  /** Hears of the search pool's load and of every search as it ends (the server's metrics). */
  searchObserver?: SearchPoolObserver;
  /** Bytes of repeated first-offset search pages kept (paging/page-cache.ts); 0 or absent: none. */
  searchPageCacheBytes?: number;
  /**
   * Signs syncTokens. The servers pass the deployment's key (their configuration), so that every
   * instance and every replica accepts the tokens of the others; absent, the key the database
   * was created with (a store opened by a test or a benchmark).
   */
  syncTokenSecret?: Uint8Array;
}

export const DEFAULT_SEARCH_TIMEOUT_MS = 5000;

/** The catalogue file the engine reads: its path, the records' connection and the records. */
export interface SqliteCatalogueFile {
  databasePath: string;
  db: DatabaseSync;
  records: SqliteRecordStore;
}

/** Search over the embedded catalogue file, whose search tables the records keep (README, "The engine port"). */
export function openSqliteFts5Search(
  file: SqliteCatalogueFile,
  options: SqliteFts5SearchOptions,
): OpenedSearch {
  const pool = new SearchWorkerPool({
    databasePath: file.databasePath,
    size: options.searchWorkers ?? Math.min(4, Math.max(2, availableParallelism())),
    timeoutMs: options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
    ...(options.searchObserver === undefined ? {} : { observer: options.searchObserver }),
  });
  const observer = options.searchObserver;
  return catalogSearchOver(
    sqliteFts5Engine(pool, file.db, () => file.records.compactSearchIndex()),
    {
      syncTokenSecret: options.syncTokenSecret ?? storedSyncTokenSecret(file.db),
      ...(options.searchPageCacheBytes === undefined ? {} : { pageCacheBytes: options.searchPageCacheBytes }),
      onPageCacheHit: () => observer?.pageCacheHit?.(),
    },
  );
}
