// For the tests of the packages that run on a PostgreSQL deployment without a client of their own
// (the token server): a database per test file. Not used at run time.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at TEST_DATABASE_URL (${(error as Error).message}): these tests need a PostgreSQL 15 server; start one or set TEST_DATABASE_URL=postgres://user@host:port/database`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  /** DATABASE_URL of the new database. */
  readonly url: string;
  /**
   * A new schema in it and the DATABASE_URL whose connections use it (`options=-c search_path=…`),
   * as a deployment in a schema of its own: one database, many independent deployments.
   */
  schemaUrl(): Promise<string>;
  drop(): Promise<void>;
}

/**
 * A new empty database on the server `serverUrl` names (TEST_DATABASE_URL), named `prefix` and a
 * random part so that runs side by side never meet; `drop` removes it whatever is connected.
 */
export async function createTestDatabase(serverUrl: string, prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = url.toString();
  return {
    url: database,
    async schemaUrl() {
      const schema = `deployment_${randomBytes(6).toString('hex')}`;
      await onServer(database, (client) => client.query(`CREATE SCHEMA ${schema}`));
      const withSchema = new URL(database);
      withSchema.searchParams.set('options', `-c search_path=${schema}`);
      return withSchema.toString();
    },
    drop: async () => {
      await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
