import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  catalogDatabasePath,
  openSqliteCatalogStore,
  type SqliteCatalogStoreOptions,
} from '../../src/index.ts';
import type { StoreHandle } from './store-factory.ts';

export interface SqliteStoreHandle extends StoreHandle {
  databasePath: string;
  dir: string;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'catalog-store-'));
}

export async function sqliteStore(
  options: Partial<SqliteCatalogStoreOptions> = {},
): Promise<SqliteStoreHandle> {
  const dir = tempDataDir();
  const databasePath = catalogDatabasePath(dir);
  const store = openSqliteCatalogStore({ searchWorkers: 2, ...options, databasePath });
  const handle: SqliteStoreHandle = {
    store,
    databasePath,
    dir,
    dispose: async () => {
      await handle.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return handle;
}
