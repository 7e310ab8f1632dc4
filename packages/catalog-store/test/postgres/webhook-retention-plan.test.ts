import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import { SELECT_PRUNABLE_DELIVERIES } from '../../src/records/webhook-outbox-records.ts';
import { freshSchema } from '../support/postgres-factory.ts';

describe('delivery log retention on PostgreSQL', () => {
  it('the prune can find old finished deliveries through their own index, not only by reading the whole delivery log', async () => {
    const { url, schema, drop } = await freshSchema();
    const store = await openPostgresRecordStore({ url, schema, maxConnections: 1 });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${client.escapeIdentifier(schema)}`);
      // An empty table is cheapest to read whole; forbidding that shows whether the index can serve.
      await client.query('SET enable_seqscan = off');
      let position = 0;
      const sql = SELECT_PRUNABLE_DELIVERIES.replace(/\?/g, () => `$${++position}`);
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [Date.now(), 1000]);
      const text = plan.rows.map((line) => line['QUERY PLAN']).join('\n');
      expect(text).toContain('webhook_deliveries_finished');
      expect(text).not.toContain('Seq Scan');
    } finally {
      await client.end();
      await drop();
    }
  });
});
