// SQLite file sink: one row per product id, upserted, never deleted. node:sqlite exists on Node 22.5+
// only, so it is loaded lazily and older Node gets a clear message.
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
  const db = new sqlite.DatabaseSync(path);
  db.exec(`PRAGMA journal_mode = WAL;
CREATE TABLE IF NOT EXISTS products (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  synced_at TEXT NOT NULL
);`);
  const upsert = db.prepare(
    'INSERT INTO products (id, data, synced_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data, synced_at = excluded.synced_at',
  );
  let open = true;
  return {
    async upsert(products) {
      const at = new Date().toISOString();
      db.exec('BEGIN');
      try {
        for (const product of products) upsert.run(product.id, JSON.stringify(product), at);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    async finish() {},
    async close() {
      if (open) {
        open = false;
        db.close();
      }
    },
  };
}
