import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgresReplica } from './open-postgres-replica.ts';
import { TEST_SEARCH_TIMEOUT_MS, tempDataDir } from './sqlite-factory.ts';
import type { StoreHandle } from './store-factory.ts';

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
  const schema = `search_${randomBytes(6).toString('hex')}`;
  await onServer(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return {
    url,
    schema,
    drop: () =>
      onServer(url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`)).then(() => undefined),
  };
}

/**
 * A whole PostgreSQL deployment as the API opens it (the registry's `sqlite-replica` entry): records in a fresh
 * schema, search in a replica under a temporary data directory that follows the change feed.
 */
export async function postgresCatalogStore(): Promise<StoreHandle> {
  const { url, schema, drop } = await freshSchema();
  const dataDir = tempDataDir();
  const store = await openPostgresReplica(
    // The search_path rides on the URL, as a deployment using its own schema would give it.
    { url: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`, dataDir },
    {
      searchWorkers: 2,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
      // A catch-up is milliseconds; a loaded test machine can take longer, and a 503 is not what a
      // test of results means to check. The replica tests set their own.
      freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
    },
  );
  return {
    store,
    location: { engine: 'postgres', url, schema },
    dispose: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      await drop();
    },
  };
}
