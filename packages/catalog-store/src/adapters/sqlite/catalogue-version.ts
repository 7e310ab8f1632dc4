import type { DatabaseSync } from 'node:sqlite';
import { statement } from './statement-cache.ts';

/** Every table a product search reads (the full-text index follows `products`). */
const CATALOGUE_TABLES = [
  'products',
  'product_relations',
  'product_channel_visibility',
  'product_documents',
  'product_facets',
  'facet_combinations',
  'facet_counts',
  'brands',
  'web_channels',
] as const;

/**
 * Changes whenever what a product search of this connection would answer may have changed:
 * `PRAGMA data_version` on every commit by any other connection (this process or another), and a
 * count of this connection's own row writes to the catalogue's tables, kept by TEMP triggers (they
 * exist only on this connection, roll back with its transactions and touch nobody's schema).
 * Unlike snapshotVersion, the connection's other writes (usage counts, audit events, sessions)
 * leave it alone: the API flushes usage counts every few seconds, which would otherwise empty a
 * cache keyed on it as often.
 */
export function catalogueVersionReader(db: DatabaseSync): () => string {
  db.exec('CREATE TEMP TABLE IF NOT EXISTS catalogue_writes (n INTEGER NOT NULL)');
  if (db.prepare('SELECT 1 FROM temp.catalogue_writes').get() === undefined) {
    db.exec('INSERT INTO temp.catalogue_writes (n) VALUES (0)');
  }
  for (const table of CATALOGUE_TABLES) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS catalogue_writes_${table}_${event.toLowerCase()}
        AFTER ${event} ON main.${table} BEGIN UPDATE temp.catalogue_writes SET n = n + 1; END`);
    }
  }
  const sql = `SELECT (SELECT data_version FROM pragma_data_version) || ':' || (SELECT n FROM temp.catalogue_writes) AS version`;
  return () => (statement(db, sql).get() as { version: string }).version;
}
