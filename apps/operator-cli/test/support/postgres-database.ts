import { createTestDatabase as createStoreTestDatabase } from '@catalog/store/testing';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  readonly name: string;
  /** DATABASE_URL of the new database. */
  readonly url: string;
  /** Runs one query on it. */
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/** A new empty database on the TEST_DATABASE_URL server, for one test file; `drop` removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createStoreTestDatabase(inject('testSettings').databaseUrl, 'operator_cli');
  return {
    name: new URL(database.url).pathname.slice(1),
    url: database.url,
    async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query<R>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () => database.drop(),
  };
}
