import type { DatabaseSync } from 'node:sqlite';

/** The tables a load writes row by row; the derived tables are written set-based, in key order. */
const LOADED_TABLES = ['products', 'product_relations', 'product_channel_visibility'];

/**
 * Drops the secondary indexes of the loaded tables (the sort, code, brand and status indexes of
 * products, relations by target, visibility by product); returns their text for
 * `restoreSchemaObjects`. Filling a table first and building each index once with CREATE INDEX
 * (one sort) is far cheaper than a million inserts at random places in fifteen B-trees, most of
 * whose pages no longer fit the cache. The implicit indexes of UNIQUE and PRIMARY KEY constraints
 * (no `sql`) cannot be dropped and stay; the load needs the one on `products.id` anyway.
 */
export function dropSecondaryIndexes(db: DatabaseSync): string[] {
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema
       WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))
       ORDER BY name`,
    )
    .all(JSON.stringify(LOADED_TABLES)) as Array<{ name: string; sql: string }>;
  for (const row of rows) db.exec(`DROP INDEX ${row.name}`);
  return rows.map((row) => row.sql);
}
