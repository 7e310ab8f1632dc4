import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogDatabasePath } from '../../src/index.ts';
import { openSqliteCatalogStore, type SqliteCatalogStoreOptions } from './embedded-search.ts';
import type { StoreHandle } from './store-factory.ts';

export interface SqliteStoreHandle extends StoreHandle {
  databasePath: string;
  dir: string;
}

/**
 * The search budget of a test's store. The production default (5 s) covers a worker thread's start
 * and a query on a server; a loaded test machine can spend longer than that on the start alone, and
 * a time-out is never what a test of results means to check. Time-out tests set their own budget.
 */
export const TEST_SEARCH_TIMEOUT_MS = 120_000;

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'catalog-store-'));
}

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
