import { mkdirSync } from 'node:fs';
import { type CatalogStore, catalogDatabasePath, openSqliteCatalogStore } from '@catalog/store';
import { UsageError } from './usage-error.ts';

export function ensureDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UsageError(`cannot create the data directory ${dataDir}: ${(error as Error).message}`);
  }
}

/** Opens the catalogue of `dataDir`, creating and migrating it on first use. */
export function openCatalog(dataDir: string): CatalogStore {
  ensureDataDir(dataDir);
  return openSqliteCatalogStore({ databasePath: catalogDatabasePath(dataDir), searchWorkers: 1 });
}
