import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import type { RecordStoreHandle } from './store-factory.ts';

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new schema in the run's database (test/support/postgres-run-database.ts). */
export async function freshSchema(): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const url = inject('postgresRunDatabaseUrl');
  const schema = `store_${randomBytes(6).toString('hex')}`;
  await onServer(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return {
    url,
    schema,
    drop: () =>
      onServer(url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
  };
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
