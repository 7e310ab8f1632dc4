import type { CatalogStore } from '@catalog/store';
import { openSqliteCatalogue } from '@catalog/store/sqlite';
import { openSqliteFts5Search, type SqliteFts5SearchOptions } from './open-sqlite-fts5-search.ts';

export interface SqliteCatalogStoreOptions extends SqliteFts5SearchOptions {
  databasePath: string;
}

/**
 * The embedded default: records and search in one SQLite file (creating and migrating it as
 * needed), the records on this thread's connection, the searches in the engine's worker threads.
 */
export function openSqliteCatalogStore(options: SqliteCatalogStoreOptions): CatalogStore {
  const { databasePath, ...searchOptions } = options;
  const { store: records, db } = openSqliteCatalogue({ databasePath });
  const { close: closeSearch, ...search } = openSqliteFts5Search(
    { databasePath, db, records },
    searchOptions,
  );
  return {
    ...records,
    ...search,
    close: async () => {
      await closeSearch();
      await records.close();
    },
  };
}
