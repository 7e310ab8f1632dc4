import type { DatabaseSync } from 'node:sqlite';

/**
 * The triggers that fire when a product or a relation row is inserted (migrations 2, 4, 5, 6, 9). A
 * bulk load drops them inside its transaction, inserts the new rows, does their work once in
 * set-based statements (derive-new-rows.ts), and creates them again, from the text they were stored
 * with, before anything else is written: no other connection ever sees the schema without them (the
 * transaction holds the write lock, and a rollback restores them).
 */
const INSERT_TRIGGERS = [
  'products_fts_insert',
  'products_facets_insert',
  'products_facet_combination_insert',
  'products_document_insert',
  'products_feed_insert',
  'product_relations_document_insert',
] as const;

/** Drops the insert triggers; returns their text for `restoreSchemaObjects`. */
export function suspendInsertTriggers(db: DatabaseSync): string[] {
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN ('products', 'product_relations')`,
    )
    .all() as Array<{ name: string; sql: string }>;
  const onInsert = rows.filter((row) => /\bAFTER\s+INSERT\s+ON\b/i.test(row.sql));
  const known = new Set<string>(INSERT_TRIGGERS);
  const unknown = onInsert.filter((row) => !known.has(row.name)).map((row) => row.name);
  if (unknown.length > 0 || onInsert.length !== INSERT_TRIGGERS.length) {
    // A migration added or renamed an insert trigger: bulk loading must learn what it does first.
    throw new Error(`bulk load does not know the insert triggers ${unknown.join(', ') || '(some missing)'}`);
  }
  for (const row of onInsert) db.exec(`DROP TRIGGER ${row.name}`);
  return onInsert.map((row) => row.sql);
}

/** Creates schema objects again from the text sqlite_schema held for them. */
export function restoreSchemaObjects(db: DatabaseSync, sql: readonly string[]): void {
  for (const text of sql) db.exec(text);
}
