import { inject } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import { createTestSchema, type RecordStoreHandle, type TestSchema } from '../../src/testing/index.ts';

/** A new schema in the run's database (test/support/postgres-run-database.ts). */
export function freshSchema(): Promise<TestSchema> {
  return createTestSchema(inject('postgresRunDatabaseUrl'), 'store');
}

/** A fresh, empty, migrated PostgreSQL record store per call, in its own schema, dropped by `dispose`. */
export async function postgresStore(): Promise<RecordStoreHandle> {
  const { url, schema, drop } = await freshSchema();
  const store = await openPostgresRecordStore({ url, schema, maxConnections: 4 });
  return {
    store,
    location: { engine: 'postgres', url, schema },
    dispose: async () => {
      await store.close();
      await drop();
    },
  };
}
