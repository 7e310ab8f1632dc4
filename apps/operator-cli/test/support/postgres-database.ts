import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('testSettings').databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at TEST_DATABASE_URL (${(error as Error).message}): start a PostgreSQL 15 server or set TEST_DATABASE_URL=postgres://user@host:port/database`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

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
  const name = `operator_cli_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(inject('testSettings').databaseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<R>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () =>
      onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
