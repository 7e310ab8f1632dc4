import type pg from 'pg';

/** The sequence of the newest committed change-feed entry; 0 when there is none. */
export async function feedHead(db: pg.Pool | pg.PoolClient): Promise<number> {
  // The clock's counter, not max(sequence): the same number, read from one row.
  const result = await db.query<{ last_sequence: number }>('SELECT last_sequence FROM write_clock');
  return result.rows[0]?.last_sequence ?? 0;
}
