import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../../src/seed/generate-catalogue.ts';
import { freshSchema } from '../support/postgres-factory.ts';

/** What the planner believes a table holds: -1 until it has been analyzed (or vacuumed). */
async function plannedRows(url: string, schema: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ rows: number }>(
      'SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = to_regclass($1)',
      [`${schema}.${table}`],
    );
    return result.rows[0]?.rows ?? Number.NaN;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL planner statistics after a bulk load', () => {
  it('a load into an empty catalogue commits the statistics of what it loaded: the planner knows the products and relations at once', async () => {
    const { url, schema, drop } = await freshSchema();
    const store = await openPostgresRecordStore({ url, schema, maxConnections: 2 });
    try {
      for (const channel of DEMO_WEB_CHANNELS) await store.webChannels.create(channel);
      expect(await plannedRows(url, schema, 'products')).toBe(-1);
      await store.products.bulkLoadAll(generateProductBatches({ products: 1500, seed: 'stats' }, 500));
      expect(await plannedRows(url, schema, 'products')).toBe(1500);
      const relations = await plannedRows(url, schema, 'product_relations');
      expect(relations).toBeGreaterThan(0);
    } finally {
      await store.close();
      await drop();
    }
  });
});
