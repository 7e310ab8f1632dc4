import { existsSync } from 'node:fs';
import { FileSigningKeyStore, signingKeysFile } from '@catalog/identity';
import { openSqliteCatalogStore } from '@catalog/search/engines';
import { catalogDatabasePath } from '@catalog/store';
import { migrateDatabase, openSqliteRecordStore } from '@catalog/store/sqlite';
import type { RecordsEngine } from '../engine-registry.ts';
import { ensureDataDir } from './ensure-data-dir.ts';

/** The embedded default: one SQLite file under DATA_DIR, the signing keys in a file beside it. */
export const sqliteRecords: RecordsEngine<'sqlite'> = {
  name: 'sqlite',
  defaultSearchEngine: 'sqlite-fts5',
  openRecords: async (location) =>
    openSqliteRecordStore({ databasePath: catalogDatabasePath(location.dataDir) }),
  openLoadTarget: async (location) => {
    ensureDataDir(location.dataDir);
    // One search worker: a load only compacts the index at its end, and searches nothing.
    return openSqliteCatalogStore({ databasePath: catalogDatabasePath(location.dataDir), searchWorkers: 1 });
  },
  migrate: async (location) => {
    ensureDataDir(location.dataDir);
    return migrateDatabase(catalogDatabasePath(location.dataDir));
  },
  openSigningKeyStore: async (location) => new FileSigningKeyStore(signingKeysFile(location.dataDir)),
  describe: (location) => catalogDatabasePath(location.dataDir),
  absence: (location) => {
    const path = catalogDatabasePath(location.dataDir);
    return existsSync(path) ? undefined : `no catalogue database at ${path}`;
  },
};
