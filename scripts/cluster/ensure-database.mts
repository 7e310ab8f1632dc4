// The cluster's PostgreSQL database, created on the first start when it does not exist yet (the
// servers and `pnpm catalog migrate` then create the schema in it). node-postgres is borrowed from the
// store package: the repository root installs no runtime dependency of its own.
import { createRequire } from 'node:module';

interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rowCount: number | null }>;
  end(): Promise<void>;
}
interface Pg {
  Client: new (options: { connectionString: string }) => PgClient;
}

const pg = createRequire(new URL('../../packages/catalog-store/package.json', import.meta.url))('pg') as Pg;

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/** The URL without its password, for messages. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}

/** Creates the database `url` names unless it exists; resolves with whether it created it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name))
    throw new DatabaseUnavailableError(
      `DATABASE_URL must name its database with letters, digits and _ (not "${name}")`,
    );
  // Databases are created from the server's maintenance database.
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUnavailableError(
      `PostgreSQL is not reachable at ${describeDatabase(server.toString())} (${(error as Error).message}): start it or set DATABASE_URL`,
    );
  }
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if ((found.rowCount ?? 0) > 0) return false;
    await client.query(`CREATE DATABASE ${name}`);
    return true;
  } finally {
    await client.end();
  }
}
