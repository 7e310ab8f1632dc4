import type { DatabaseSync } from 'node:sqlite';
import { catalogueVersionReader } from '@catalog/store/sqlite';
import type { SearchEngine } from '../../engine/search-engine.ts';
import type { SearchWorkerPool } from './worker-pool.ts';

export const SQLITE_SEARCH_SOURCE = 'sqlite-fts5';

/**
 * The FTS5 engine: each search runs in a worker thread on its own read connection to the catalogue
 * file, in one read snapshot. `db` is the records' own connection, on which the catalogue version
 * is read, so that its own writes change it at once; compacting the index is the records'
 * (`compact`), since they keep it.
 */
export function sqliteFts5Engine(
  pool: SearchWorkerPool,
  db: DatabaseSync,
  compact: () => Promise<void>,
): SearchEngine {
  let version: (() => string) | undefined;
  return {
    source: SQLITE_SEARCH_SOURCE,
    searchProducts: (job) => pool.run({ kind: 'products', job }),
    searchProductDocuments: (job, view) => pool.run({ kind: 'product-documents', job, view }),
    searchBrands: (job) => pool.run({ kind: 'brands', job }),
    // Its TEMP triggers are created on first use: an engine without a page cache never asks.
    catalogueVersion: () => {
      version ??= catalogueVersionReader(db);
      return version();
    },
    compactIndex: compact,
    close: () => pool.close(),
  };
}
