// A database of its own for each postgres stack, on the server TEST_DATABASE_URL names, so that
// stacks side by side (and other runs on the same server) never see each other's rows; dropped with
// the stack. An unreachable server fails with one line saying how to provide one.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { settings } from './settings.ts';

export interface PostgresDatabase {
  /** DATABASE_URL of the database, as the servers and the operator CLI take it. */
  readonly url: string;
  /** Drops it, whoever is still connected. */
  drop(): Promise<void>;
}

/** Runs `work` on a connection to the server's default database (where databases are created and dropped). */
async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const serverUrl = settings.postgresServerUrl;
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${serverUrl} (${(error as Error).message}): E2E_ENGINE=postgres needs a PostgreSQL 15 server; start one or set TEST_DATABASE_URL=postgres://user@host:port/database`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Fails with the one line above when the server cannot be reached (a run checks once before any stack). */
export const assertPostgresReachable = (): Promise<void> => onServer(async () => undefined);

export async function createPostgresDatabase(): Promise<PostgresDatabase> {
  const name = `e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(settings.postgresServerUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      onServer(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
