// One SQL connection to a stack's records, whichever engine holds them: the SQLite file in DATA_DIR
// or the stack's PostgreSQL database. Parameters are written `$1, $2…` on both (SQLite binds them by
// name), so a check whose SQL both dialects share is written once. Rows come back as each engine's
// driver gives them, with PostgreSQL's bigints read as numbers, as the store reads them.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { SEARCH_REPLICA_FILE_NAME } from '@catalog/search/engines';
import { catalogDatabasePath, type StorageLocation } from '@catalog/store';
import pg from 'pg';

export type Row = Record<string, unknown>;
export type Param = string | number | null;

export interface StoreConnection {
  readonly engine: StorageLocation['engine'];
  all(sql: string, ...params: Param[]): Promise<Row[]>;
  /** A write, for the fault set-ups that edit the records as time or damage would. */
  run(sql: string, ...params: Param[]): Promise<void>;
  /** One or several statements without parameters. */
  exec(sql: string): Promise<void>;
  /** `work` in one read transaction: every read from the same committed state. */
  reading<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ConnectionOptions {
  /** Refuses writes: what the checks open; the fault set-ups that edit the records do not. */
  readonly readOnly?: boolean;
}

const INT8_OID = 20;

/** SQLite, through node:sqlite (the writers wait up to 15 s for a lock, as the servers' own do). */
export function openSqliteConnection(path: string, options: ConnectionOptions = {}): StoreConnection {
  const db = new DatabaseSync(path, { readOnly: options.readOnly ?? false, timeout: 15_000 });
  const bind = (params: Param[]) =>
    Object.fromEntries(params.map((value, index) => [String(index + 1), value]));
  return {
    engine: 'sqlite',
    all: async (sql, ...params) =>
      (params.length === 0 ? db.prepare(sql).all() : db.prepare(sql).all(bind(params))) as Row[],
    run: async (sql, ...params) =>
      void (params.length === 0 ? db.prepare(sql).run() : db.prepare(sql).run(bind(params))),
    exec: async (sql) => db.exec(sql),
    async reading(work) {
      db.exec('BEGIN');
      try {
        return await work();
      } finally {
        db.exec('COMMIT');
      }
    },
    close: async () => db.close(),
  };
}

async function openPostgresConnection(url: string, options: ConnectionOptions): Promise<StoreConnection> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? Number
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  if (options.readOnly) await client.query('SET default_transaction_read_only = on');
  return {
    engine: 'postgres',
    all: async (sql, ...params) => (await client.query(sql, params)).rows as Row[],
    run: async (sql, ...params) => void (await client.query(sql, params)),
    exec: async (sql) => void (await client.query(sql)),
    async reading(work) {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      try {
        return await work();
      } finally {
        await client.query('COMMIT');
      }
    },
    close: () => client.end(),
  };
}

/** The records of a stack (`stack.location`). */
export function openStoreConnection(
  location: StorageLocation,
  options: ConnectionOptions = {},
): Promise<StoreConnection> {
  return location.engine === 'postgres'
    ? openPostgresConnection(location.url, options)
    : Promise.resolve(openSqliteConnection(catalogDatabasePath(location.dataDir), options));
}

/**
 * The SQLite file the API's search engine reads: the catalogue itself on the embedded engine; on
 * PostgreSQL the instance's search replica in DATA_DIR, which follows the change feed.
 */
export const searchDatabasePath = (location: StorageLocation): string =>
  location.engine === 'postgres'
    ? join(location.dataDir, SEARCH_REPLICA_FILE_NAME)
    : catalogDatabasePath(location.dataDir);
