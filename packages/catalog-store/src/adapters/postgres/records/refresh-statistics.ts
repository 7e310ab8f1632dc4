import type pg from 'pg';

/** The tables a bulk load fills: products and everything hanging off them, and the feed. */
export const LOADED_TABLES = [
  'products',
  'product_relations',
  'product_channel_visibility',
  'brands',
  'change_feed',
] as const;

/**
 * ANALYZE after a bulk load, inside its transaction, so the statistics commit with the rows.
 * Autovacuum would get to it later; until then the planner plans for the empty tables it last saw:
 * at 1M products a record read by a handful of ids (the replica's feed reads) sorted the whole
 * products table, 0.5 s instead of 1 ms. ANALYZE samples a fixed number of rows: about a second at
 * 1M products.
 */
export async function refreshStatistics(client: pg.PoolClient, tables: readonly string[]): Promise<void> {
  await client.query(`ANALYZE ${tables.join(', ')}`);
}
