import { rmSync } from 'node:fs';
import {
  createTestSchema,
  type StoreHandle,
  TEST_SEARCH_TIMEOUT_MS,
  type TestSchema,
  tempDataDir,
} from '@catalog/store/testing';
import { inject } from 'vitest';
import { openPostgresReplica } from './open-postgres-replica.ts';

/** A new schema in the run's database (test/support/postgres-run-database.ts). */
export function freshSchema(): Promise<TestSchema> {
  return createTestSchema(inject('postgresRunDatabaseUrl'), 'search');
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
  return postgresHandle(store, { url, schema, drop }, dataDir);
}

/** A PostgreSQL deployment's store as a test handle: disposing it closes it, its data directory and schema go. */
export function postgresHandle(
  store: StoreHandle['store'],
  schema: TestSchema,
  dataDir: string,
): StoreHandle {
  return {
    store,
    location: { engine: 'postgres', url: schema.url, schema: schema.schema },
    dispose: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      await schema.drop();
    },
  };
}
