import type pg from 'pg';
import { type CopiedTable, TARGET_TABLES } from './copied-tables.ts';
import { CopyRefusedError } from './copy-refused-error.ts';

/** A copied table's columns on the target, in their order, and which of them are identities. */
export interface TargetTable {
  readonly columns: readonly string[];
  readonly identities: readonly string[];
}

/**
 * The columns each table has on the target, read from its catalogue: they are the ones copied, by
 * name, so a column added to both engines is copied without a change here. Generated columns take
 * no value.
 */
export async function targetTables(
  client: pg.PoolClient,
  tables: readonly CopiedTable[],
): Promise<Map<string, TargetTable>> {
  const result = await client.query<{ table_name: string; column_name: string; identity: boolean }>(
    `SELECT table_name, column_name, is_identity = 'YES' AS identity FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1) AND is_generated = 'NEVER'
     ORDER BY table_name, ordinal_position`,
    [tables.map((table) => table.name)],
  );
  const found = new Map<string, { columns: string[]; identities: string[] }>();
  for (const row of result.rows) {
    let table = found.get(row.table_name);
    if (table === undefined) {
      table = { columns: [], identities: [] };
      found.set(row.table_name, table);
    }
    table.columns.push(row.column_name);
    if (row.identity) table.identities.push(row.column_name);
  }
  const missing = tables.filter((table) => !found.has(table.name)).map((table) => table.name);
  if (missing.length > 0) {
    throw new CopyRefusedError(`the target has no table ${missing.join(', ')}: is it a catalogue database?`);
  }
  return found;
}

/**
 * Refuses a target holding any record: the copy keeps every id, seq and time, which only an empty
 * catalogue can take. Asked under the write clock's lock, so no writer can add one before the commit.
 */
export async function refuseNonEmptyTarget(client: pg.PoolClient): Promise<void> {
  const result = await client.query<{ table_name: string }>(
    TARGET_TABLES.map(
      (table) => `SELECT '${table}' AS table_name WHERE EXISTS (SELECT 1 FROM ${table})`,
    ).join(' UNION ALL '),
  );
  if (result.rows.length > 0) {
    throw new CopyRefusedError(
      `the PostgreSQL catalogue is not empty (rows in ${result.rows.map((row) => row.table_name).join(', ')}): the copy goes only into an empty one; nothing was written`,
    );
  }
}
