import type pg from 'pg';
import { storeErrorOf } from './postgres-errors.ts';

/** Codes under which PostgreSQL asks a transaction to be run again (serialisation, deadlock). */
const RETRYABLE = new Set(['40001', '40P01']);

async function rollback(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
  } catch {
    // The connection is broken; releasing it with the error below discards it from the pool.
  }
}

/**
 * Runs `work` in one write transaction and gives it the transaction's write timestamp.
 *
 * The first statement locks `write_clock`'s row and moves its clock forward; the lock is held to
 * the commit, so write transactions take turns. That is what makes two rules hold with several
 * processes writing at once, as SQLite's single writer makes them hold on the embedded engine:
 * - the timestamp is never earlier than any updatedAt already committed, so a record written
 *   during a sync walk always lands ahead of the walker's cursor (spec 4.4);
 * - change-feed entries (the triggers of migration 1) are numbered in commit order without gaps.
 * Catalogue writes are rare next to reads, and each holds the lock for a few statements.
 */
export async function inWriteTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, ts: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const clock = await client.query<{ last_ts: number }>(
        'UPDATE write_clock SET last_ts = greatest(last_ts + 1, $1) RETURNING last_ts',
        [Date.now()],
      );
      const result = await work(client, clock.rows[0]?.last_ts as number);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await rollback(client);
      const code = (error as { code?: string }).code;
      if (code !== undefined && RETRYABLE.has(code) && attempt < 3) continue;
      // Server errors and the store's own carry a code; one without is a broken connection.
      if (code === undefined) broken = error as Error;
      throw storeErrorOf(error);
    } finally {
      client.release(broken);
    }
  }
}

/** Runs `work` on one connection in a REPEATABLE READ snapshot, so its reads agree. */
export async function inReadTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await rollback(client);
    throw storeErrorOf(error);
  } finally {
    client.release();
  }
}
