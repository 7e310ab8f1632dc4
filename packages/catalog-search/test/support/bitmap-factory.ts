import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openPostgresRecordStore } from '@catalog/store/postgres';
import { catalogDatabasePath, openSqliteRecordStore } from '@catalog/store/sqlite';
import { type StoreHandle, TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '@catalog/store/testing';
import {
  openBitmapSearchOverRecords,
  openBitmapSearchOverReplica,
  openReplicatedSearch,
  SEARCH_REPLICA_FILE_NAME,
} from '../../src/engines/index.ts';
import { freshSchema, postgresHandle } from './postgres-factory.ts';

// A catch-up is milliseconds; a loaded test machine can take longer, and a 503 is not what a test
// of results means to check.
const wiring = { freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS };

/**
 * The embedded records with the bitmap engine following their feed, wired as @catalog/engines'
 * `bitmap` entry wires them (the registry package depends on this one).
 */
export async function bitmapOverSqlite(): Promise<StoreHandle & { dir: string; databasePath: string }> {
  const dir = tempDataDir();
  const databasePath = catalogDatabasePath(dir);
  const store = await openReplicatedSearch(
    openSqliteRecordStore({ databasePath }),
    () => openBitmapSearchOverRecords(databasePath, {}),
    wiring,
  );
  return {
    store,
    dir,
    databasePath,
    location: { engine: 'sqlite', databasePath },
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL records with the bitmap engine and its replica file under a temporary data directory. */
export async function bitmapOverPostgres(): Promise<StoreHandle> {
  const { url, schema, drop } = await freshSchema();
  const dataDir = tempDataDir();
  const store = await openReplicatedSearch(
    await openPostgresRecordStore({
      url: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    }),
    (source) => openBitmapSearchOverReplica(join(dataDir, SEARCH_REPLICA_FILE_NAME), source, {}),
    wiring,
  );
  return postgresHandle(store, { url, schema, drop }, dataDir);
}
