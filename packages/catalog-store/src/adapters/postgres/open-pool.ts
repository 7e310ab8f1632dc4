import pg from 'pg';
import { answerUnstorableLookups, storeErrorOf } from './postgres-errors.ts';

export interface PostgresConnectionOptions {
  /** `postgres://…` or `postgresql://…`, as DATABASE_URL gives it. */
  url: string;
  /**
   * The schema the catalogue's tables live in. Unset, the URL decides (its `options=-c
   * search_path=…` parameter, else the server's default, `public`). Tests give each store its own.
   */
  schema?: string;
  /** Connections this process may open (default 10). */
  maxConnections?: number;
}

const INT8_OID = 20;

/**
 * Every integer column is a bigint (times in epoch milliseconds, sequences, counts). They stay far
 * below 2^53, so they are read as numbers, as the embedded engine returns them, not as strings.
 */
function parseInt8(value: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new RangeError(`bigint ${value} is beyond 2^53`);
  return parsed;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The settings every connection starts with: the URL's own (`options=-c …`), then no JIT, then the
 * schema when one is given. No JIT: a record read's correlated subqueries (read-products.ts) raise
 * its estimated cost past the JIT thresholds, and compiling took 0.5 s of a statement that runs in
 * 1 ms (the replica's feed reads, at 100k products); no statement of the catalogue gains from it.
 */
function connectionSettings(options: PostgresConnectionOptions): {
  connectionString: string;
  options: string;
} {
  // Taken out of the URL and passed on with ours: node-postgres lets the URL's replace them whole.
  const url = new URL(options.url);
  const fromUrl = url.searchParams.get('options');
  url.searchParams.delete('options');
  return {
    connectionString: url.toString(),
    options: [
      ...(fromUrl === null ? [] : [fromUrl]),
      '-c jit=off',
      ...(options.schema === undefined ? [] : [`-c search_path=${quoteIdentifier(options.schema)}`]),
    ].join(' '),
  };
}

/** A pool whose connections see `schema` first, without JIT, with bigints read as numbers. */
export function openPool(options: PostgresConnectionOptions): pg.Pool {
  const pool = new pg.Pool({
    ...connectionSettings(options),
    max: options.maxConnections ?? 10,
    types,
    application_name: 'catalog-store',
  });
  // An idle connection the server drops (a restart, a failover) is removed from the pool and the
  // next query opens another; without a listener the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  // Every single-statement read and write goes through pool.query; transactions translate their
  // own errors (transaction.ts).
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(pool, {
    query: (...args: unknown[]) => {
      return query(...args).catch((error: unknown) => {
        throw storeErrorOf(error);
      });
    },
  });
  // A lookup by a value holding U+0000 finds nothing: no stored text can hold it.
  answerUnstorableLookups(pool);
  pool.on('connect', (client) => answerUnstorableLookups(client));
  return pool;
}
