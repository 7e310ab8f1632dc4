import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { SchemaTooNewError } from '../adapters/migration.ts';
import { quoteIdentifier } from '../adapters/postgres/open-pool.ts';
import { copyLine } from '../adapters/postgres/records/copy-rows.ts';
import type { ColumnValue } from '../adapters/product-columns.ts';
import { MIGRATIONS } from '../adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../adapters/sqlite/open-database.ts';
import { recordedSchemaVersion } from '../adapters/sqlite/schema-version.ts';
import type { CopiedTable } from './copied-tables.ts';
import { CopyRefusedError } from './copy-refused-error.ts';

/** Rows in COPY's text format, each ending in a newline. */
export interface CopyChunk {
  readonly text: string;
  readonly rows: number;
}

/** About a megabyte of products: few writes to the socket, and never a table in memory. */
const ROWS_PER_CHUNK = 1000;

/** The embedded engine's database, read in one snapshot. */
export interface SqliteSource {
  /** Rows of each table, counted in the snapshot the chunks are read from. */
  count(table: CopiedTable): number;
  /**
   * The highest id SQLite's AUTOINCREMENT has handed out for `table` (0 when none): it can be above
   * the largest id left in the table, and an id is never handed out twice.
   */
  autoincrementHigh(table: CopiedTable): number;
  /** The table's rows in its key order, `columns` of each, a chunk at a time. */
  chunks(table: CopiedTable, columns: readonly string[]): Generator<CopyChunk>;
  close(): void;
}

const currentVersion = MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Only a database at this code's schema version is copied: its tables are the ones the target's
 * schema mirrors. An older one is migrated by the operator first, not here, so that the copy never
 * changes the file it reads.
 */
function checkSchemaVersion(db: DatabaseSync, databasePath: string): void {
  const version = recordedSchemaVersion(db);
  if (version === undefined) throw new CopyRefusedError(`${databasePath} is not a catalogue database`);
  if (version > currentVersion) throw new SchemaTooNewError(version, currentVersion);
  if (version < currentVersion) {
    throw new CopyRefusedError(
      `${databasePath} is at schema version ${version}, this code's is ${currentVersion}: migrate it first (pnpm catalog migrate --data-dir <its directory>); the copy never changes the file it reads`,
    );
  }
}

function* chunksOf(db: DatabaseSync, table: CopiedTable, columns: readonly string[]): Generator<CopyChunk> {
  const statement = db.prepare(
    `SELECT ${columns.map(quoteIdentifier).join(', ')} FROM ${table.name} ORDER BY ${table.orderBy}`,
  );
  statement.setReturnArrays(true);
  let lines: string[] = [];
  // STRICT tables without BLOB columns: every value is text, a number or null. Integers 0 and 1
  // stand for booleans on the embedded engine, and COPY reads them as booleans where the target's
  // column is one.
  for (const row of statement.iterate() as Iterable<ColumnValue[]>) {
    lines.push(copyLine(row));
    if (lines.length === ROWS_PER_CHUNK) {
      yield { text: `${lines.join('\n')}\n`, rows: lines.length };
      lines = [];
    }
  }
  if (lines.length > 0) yield { text: `${lines.join('\n')}\n`, rows: lines.length };
}

/**
 * Opens the file read-only and starts one read transaction that lasts until `close`: every table
 * is read at the same instant, whatever a server still writes meanwhile (WAL readers keep their
 * snapshot), and the file is never written.
 */
export function openSqliteSource(databasePath: string): SqliteSource {
  if (!existsSync(databasePath)) throw new CopyRefusedError(`no SQLite catalogue at ${databasePath}`);
  const db = openDatabase(databasePath, { readOnly: true });
  try {
    db.exec('BEGIN');
    checkSchemaVersion(db, databasePath);
    const highs = new Map(
      (db.prepare('SELECT name, seq FROM sqlite_sequence').all() as Array<{ name: string; seq: number }>).map(
        (row) => [row.name, row.seq],
      ),
    );
    return {
      count: (table) => (db.prepare(`SELECT count(*) AS n FROM ${table.name}`).get() as { n: number }).n,
      autoincrementHigh: (table) => highs.get(table.name) ?? 0,
      chunks: (table, columns) => chunksOf(db, table, columns),
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
