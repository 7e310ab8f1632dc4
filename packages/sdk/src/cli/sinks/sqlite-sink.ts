// SQLite file sink: one row per product id, upserted, never deleted. node:sqlite exists on Node 22.5+
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
  let closed = false;
  const ready = (): DatabaseSync => {
    if (db !== undefined) return db;
    if (closed) throw new Error(`${path}: the sink is closed`);
    const opened = new sqlite.DatabaseSync(path);
    opened.exec(`PRAGMA journal_mode = WAL;
CREATE TABLE IF NOT EXISTS products (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  synced_at TEXT NOT NULL
);`);
    db = opened;
    return opened;
  };
  return {
    async upsert(products) {
      const database = ready();
      const upsert = database.prepare(
        'INSERT INTO products (id, data, synced_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, synced_at = excluded.synced_at',
      );
      const at = new Date().toISOString();
      database.exec('BEGIN');
      try {
        for (const product of products) upsert.run(product.id, JSON.stringify(product), at);
        database.exec('COMMIT');
      } catch (error) {
        database.exec('ROLLBACK');
        throw error;
      }
    },
    async finish() {
      // Every page was its own committed transaction; fold the WAL into the file before the checkpoint.
      ready().exec('PRAGMA wal_checkpoint(TRUNCATE);');
    },
    async close() {
      closed = true;
      db?.close();
      db = undefined;
    },
  };
}
