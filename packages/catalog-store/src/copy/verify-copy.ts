import type pg from 'pg';

export interface TableRows {
  readonly table: string;
  readonly rows: number;
}

/**
 * Counts every copied table on the target, inside the copy's transaction, against the source's
 * count in its snapshot, and the feed against the entries written and the clock's sequence. A
 * difference throws, which rolls the whole copy back. Returns the target's counts, the feed last.
 */
export async function verifyCopy(
  client: pg.PoolClient,
  source: readonly TableRows[],
  feedEntries: number,
): Promise<TableRows[]> {
  const result = await client.query<{ table_name: string; rows: number }>(
    [...source.map(({ table }) => table), 'change_feed']
      .map((table) => `SELECT '${table}' AS table_name, count(*) AS rows FROM ${table}`)
      .join(' UNION ALL '),
  );
  const counted = new Map(result.rows.map((row) => [row.table_name, row.rows]));
  const expected = [...source, { table: 'change_feed', rows: feedEntries }];
  const differences = expected.flatMap(({ table, rows }) =>
    counted.get(table) === rows
      ? []
      : [`${table}: ${rows} in the source, ${counted.get(table)} on the target`],
  );
  const clock = await client.query<{ last_sequence: number; top: number | null }>(
    'SELECT last_sequence, (SELECT max(sequence) FROM change_feed) AS top FROM write_clock',
  );
  const { last_sequence: lastSequence, top } = clock.rows[0] as { last_sequence: number; top: number | null };
  if (lastSequence !== feedEntries || (top ?? 0) !== feedEntries) {
    differences.push(`change feed: ${feedEntries} entries, last sequence ${lastSequence}, highest ${top}`);
  }
  if (differences.length > 0) {
    throw new Error(`the copy does not match its source, nothing was kept: ${differences.join('; ')}`);
  }
  return expected.map(({ table }) => ({ table, rows: counted.get(table) as number }));
}
