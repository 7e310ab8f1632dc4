// The engines, for the engine registry only: programs open search through the registry.

export { BITMAP_SEARCH_SOURCE } from './bitmap/bitmap-engine.ts';
export {
  type BitmapSearchOptions,
  openBitmapSearchOverRecords,
  openBitmapSearchOverReplica,
} from './bitmap/open-bitmap-search.ts';
export { type OpenCatalogueOptions, splitCatalogueOptions } from './open-catalogue-options.ts';
export { openReplicatedSearch, type ReplicatedSearchWiring } from './open-replicated-search.ts';
export {
  openSqliteCatalogStore,
  type SqliteCatalogStoreOptions,
} from './sqlite-fts5/open-sqlite-catalog-store.ts';
export {
  DEFAULT_SEARCH_TIMEOUT_MS,
  openSqliteFts5Search,
  type SqliteCatalogueFile,
  type SqliteFts5SearchOptions,
} from './sqlite-fts5/open-sqlite-fts5-search.ts';
export { SQLITE_SEARCH_SOURCE } from './sqlite-fts5/sqlite-fts5-engine.ts';
export {
  openSqliteReplicaSearch,
  type ReplicaSource,
  type SearchReplica,
  type SqliteReplicaSearchOptions,
} from './sqlite-replica/open-sqlite-replica-search.ts';
export { SEARCH_REPLICA_FILE_NAME } from './sqlite-replica/replica-file-name.ts';
