// SQLite file sink: one row per product id, upserted, never deleted. Pages are upserted in one open
// transaction with one prepared statement, committed (durably: WAL, synchronous FULL) by `flush`, that
// is before the sync saves a cursor: one commit per saved cursor, not per page. node:sqlite exists on Node 22.5+
// only, so it is loaded lazily (at start-up, before any request) and older Node gets a clear message.
import type { DatabaseSync } from 'node:sqlite';
import type { ProductSink } from './sink.ts';

export class SqliteUnavailableError extends Error {
  override readonly name = 'SqliteUnavailableError';
}

export async function openSqliteSink(path: string): Promise<ProductSink> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch (cause) {
    throw new SqliteUnavailableError(
      `The SQLite output needs Node.js 22.5 or later (node:sqlite); this is ${process.version}. Use --out FILE.ndjson instead.`,
      { cause },
    );
  }
  let db: DatabaseSync | undefined;
  let upsertRow: ReturnType<DatabaseSync['prepare']> | undefined;
  let inTransaction = false;
  let closed = false;
  const ready = (): DatabaseSync => {
    if (db !== undefined) return db;
    if (closed) throw new Error(`${path}: the sink is closed`);
    const opened = new sqlite.DatabaseSync(path);
    opened.exec(`PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
CREATE TABLE IF NOT EXISTS products (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  synced_at TEXT NOT NULL
);`);
    upsertRow = opened.prepare(
      'INSERT INTO products (id, data, synced_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, synced_at = excluded.synced_at',
    );
    db = opened;
    return opened;
  };
  const commit = () => {
    if (!inTransaction) return;
    inTransaction = false;
    db?.exec('COMMIT');
  };
  return {
    async upsert(products) {
      const database = ready();
      const statement = upsertRow as NonNullable<typeof upsertRow>;
      if (!inTransaction) {
        database.exec('BEGIN');
        inTransaction = true;
      }
      const at = new Date().toISOString();
      for (const product of products) statement.run(product.id, JSON.stringify(product), at);
    },
    async flush() {
      ready();
      commit();
    },
    async finish() {
      commit();
      // Fold the WAL into the file before the checkpoint.
      ready().exec('PRAGMA wal_checkpoint(TRUNCATE);');
    },
    async close() {
      closed = true;
      // Rows not flushed yet are kept if they can be (upserts by id: harmless either way).
      try {
        commit();
      } catch {
        db?.exec('ROLLBACK');
      }
      db?.close();
      db = undefined;
    },
  };
}
