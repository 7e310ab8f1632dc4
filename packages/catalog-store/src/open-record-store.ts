import { openPostgresRecordStore } from './adapters/postgres/open-postgres-record-store.ts';
import { catalogDatabasePath } from './adapters/sqlite/database-path.ts';
import { openSqliteRecordStore } from './adapters/sqlite/open-sqlite-catalog-store.ts';
import type { RecordStore } from './ports/catalog-store.ts';

/**
 * Where a deployment keeps its catalogue: the embedded default (one SQLite file under `dataDir`),
 * or PostgreSQL (`DATABASE_URL`), with each instance's search replica under its own `dataDir`.
 */
export type StorageLocation =
  | { engine: 'sqlite'; dataDir: string }
  | { engine: 'postgres'; url: string; dataDir: string };

/** The location a server's configuration names: DATABASE_URL when set, else the embedded default. */
export function storageLocation(config: {
  dataDir: string;
  databaseUrl: string | undefined;
}): StorageLocation {
  return config.databaseUrl === undefined
    ? { engine: 'sqlite', dataDir: config.dataDir }
    : { engine: 'postgres', url: config.databaseUrl, dataDir: config.dataDir };
}

/** The records alone (the token server, the operator CLI's record commands). */
export async function openRecordStore(location: StorageLocation): Promise<RecordStore> {
  if (location.engine === 'postgres') return openPostgresRecordStore({ url: location.url });
  return openSqliteRecordStore({ databasePath: catalogDatabasePath(location.dataDir) });
}
