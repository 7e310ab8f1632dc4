// The embedded default as the programs open it: these records with the FTS5 engine over the same
// file. The store's tests of what its transactions keep for search (full-text index, facet counts,
// stored documents, their upkeep across crashes and bulk loads) check it through searches, and that
// engine is @catalog/search's. A package dependency on it would be a cycle (search depends on the
// store), so the tests open it from its sources: test code only, never the store's own.
export {
  openSqliteCatalogStore,
  type SqliteCatalogStoreOptions,
} from '../../../catalog-search/src/engines/index.ts';
export { type SqliteStoreHandle, sqliteStore } from '../../../catalog-search/test/support/sqlite-factory.ts';
export { TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '../../src/testing/index.ts';
