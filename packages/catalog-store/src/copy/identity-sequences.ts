import type pg from 'pg';
import { quoteIdentifier } from '../adapters/postgres/open-pool.ts';

/**
 * Moves an identity column's sequence past the copied ids, and past `high`, the highest the source
 * ever handed out: an id (an audit event's, a product's seq) is never given twice, even one whose
 * row the source no longer has. An empty table starts again at 1.
 */
export async function moveIdentityPast(
  client: pg.PoolClient,
  table: string,
  column: string,
  high: number,
): Promise<void> {
  await client.query(
    `SELECT setval(pg_get_serial_sequence($1, $2), greatest(last, 1), last > 0)
     FROM (SELECT greatest(max(${quoteIdentifier(column)}), $3::bigint) AS last FROM ${table}) AS copied`,
    [table, column, high],
  );
}
