// Databases and schemas on the test server (TEST_DATABASE_URL): a database per test run or per test
// file, a schema per store under test. Not used at run time.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * `work` on a connection of its own to `url`, closed after it (test set-ups and the benches).
 * `unreachable`, when given, rewords a failure to connect (and only that) for the reader of a test run.
 */
export async function onDatabase<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
  unreachable?: (error: Error) => Error,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw unreachable === undefined ? error : unreachable(error as Error);
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
  await onDatabase(
    serverUrl,
    (client) => client.query(`CREATE DATABASE ${name}`),
    (error) =>
      new Error(
        `PostgreSQL is not reachable at TEST_DATABASE_URL (${error.message}): these tests need a PostgreSQL 15 server; start one or set TEST_DATABASE_URL=postgres://user@host:port/database`,
      ),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = url.toString();
  return {
    url: database,
    async schemaUrl() {
      const { schema } = await createTestSchema(database, 'deployment');
      const withSchema = new URL(database);
      withSchema.searchParams.set('options', `-c search_path=${schema}`);
      return withSchema.toString();
    },
    drop: async () => {
      await onDatabase(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export interface TestSchema {
  /** The database's URL, unchanged: the schema is named apart, for stores that take it as an option. */
  readonly url: string;
  readonly schema: string;
  drop(): Promise<void>;
}

/** A new schema named `prefix` and a random part in the database `databaseUrl` names. */
export async function createTestSchema(databaseUrl: string, prefix: string): Promise<TestSchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onDatabase(databaseUrl, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return {
    url: databaseUrl,
    schema,
    drop: async () => {
      await onDatabase(databaseUrl, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`));
    },
  };
}
