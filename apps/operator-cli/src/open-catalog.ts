import { mkdirSync } from 'node:fs';
import { openSqliteCatalogStore } from '@catalog/search/engines';
import {
  catalogDatabasePath,
  type LoadTarget,
  openPostgresRecordStore,
  type StorageLocation,
} from '@catalog/store';
import { UsageError } from './usage-error.ts';

export function ensureDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UsageError(`cannot create the data directory ${dataDir}: ${(error as Error).message}`);
  }
}

/**
 * Opens the catalogue, creating and migrating it on first use. On PostgreSQL there is no search
 * index here to compact: each API instance's replica applies the load from the change feed.
 */
export async function openCatalog(location: StorageLocation): Promise<LoadTarget> {
  if (location.engine === 'postgres') {
    const records = await openPostgresRecordStore({ url: location.url, maxConnections: 2 });
    return { ...records, compactSearchIndex: async () => undefined };
  }
  ensureDataDir(location.dataDir);
  return openSqliteCatalogStore({ databasePath: catalogDatabasePath(location.dataDir), searchWorkers: 1 });
}

/** Where the catalogue is, for messages. The PostgreSQL URL is not shown: it may carry a password. */
export function describeLocation(location: StorageLocation): string {
  if (location.engine === 'sqlite') return catalogDatabasePath(location.dataDir);
  const url = new URL(location.url);
  return `PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
