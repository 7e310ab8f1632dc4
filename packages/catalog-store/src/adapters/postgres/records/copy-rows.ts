import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ColumnValue } from '../../product-columns.ts';

/** Rows per chunk sent: a batch of ten thousand products is never one string of tens of megabytes. */
const ROWS_PER_CHUNK = 1000;

const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format. */
function field(value: ColumnValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'string') {
    return SPECIAL.test(value) ? value.replace(SPECIALS, (char) => ESCAPED[char] as string) : value;
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
}

/**
 * A row in COPY's text format, without its line end. A batch keeps its rows as these flat strings
 * rather than arrays of values: far fewer objects for the garbage collector to copy while the
 * batch is written.
 */
export function copyLine(values: readonly ColumnValue[]): string {
  return values.map(field).join('\t');
}

function* chunks(lines: readonly string[]): Generator<string> {
  for (let start = 0; start < lines.length; start += ROWS_PER_CHUNK) {
    yield `${lines.slice(start, start + ROWS_PER_CHUNK).join('\n')}\n`;
  }
}

/**
 * Writes `lines` (`copyLine`s of values in `columns` order) into `table` with COPY: one statement
 * whatever their number, each row checked against the table's constraints and the statement
 * through its triggers as an INSERT would be. `table` and `columns` are the caller's constants.
 */
export async function copyLines(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  lines: readonly string[],
): Promise<void> {
  if (lines.length === 0) return;
  const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(chunks(lines)), copy);
}
