import { openPostgresRecordStore } from '../adapters/postgres/index.ts';
import { openSqliteRecordStore } from '../adapters/sqlite/index.ts';
import type { RecordStore } from '../index.ts';
import type { StoreLocation } from './store-handles.ts';

/**
 * Opens, in a child process of a test, the records of the store a test's handle describes
 * (`StoreLocation` as JSON): the writer and loader fixtures that race the test's own process.
 */
export async function openStoreAt(json: string): Promise<RecordStore> {
  const location = JSON.parse(json) as StoreLocation;
  return location.engine === 'sqlite'
    ? openSqliteRecordStore({ databasePath: location.databasePath })
    : openPostgresRecordStore({ url: location.url, schema: location.schema, maxConnections: 2 });
}
