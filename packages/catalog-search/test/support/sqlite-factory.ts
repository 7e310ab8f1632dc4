import { rmSync } from 'node:fs';
import { catalogDatabasePath } from '@catalog/store/sqlite';
import { type StoreHandle, TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '@catalog/store/testing';
import { openSqliteCatalogStore, type SqliteCatalogStoreOptions } from '../../src/engines/index.ts';

export interface SqliteStoreHandle extends StoreHandle {
  databasePath: string;
  dir: string;
}

/** The embedded default, records and the FTS5 engine in one file, in a fresh directory. */
export async function sqliteStore(
  options: Partial<SqliteCatalogStoreOptions> = {},
): Promise<SqliteStoreHandle> {
  const dir = tempDataDir();
  const databasePath = catalogDatabasePath(dir);
  const store = openSqliteCatalogStore({
    searchWorkers: 2,
    searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
    ...options,
    databasePath,
  });
  const handle: SqliteStoreHandle = {
    store,
    databasePath,
    dir,
    location: { engine: 'sqlite', databasePath },
    dispose: async () => {
      await handle.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}
