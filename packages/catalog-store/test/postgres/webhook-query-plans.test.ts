import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import { SELECT_PRUNABLE_DELIVERIES, selectDuePending } from '../../src/records/webhook-outbox-records.ts';
import { freshSchema } from '../support/postgres-factory.ts';

describe('webhook query plans on PostgreSQL', () => {
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

  it("the claim can read a subscription's due deliveries in due order from their index, with no sort", async () => {
    const { url, schema, drop } = await freshSchema();
    const store = await openPostgresRecordStore({ url, schema, maxConnections: 1 });
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${client.escapeIdentifier(schema)}`);
      // An empty table is cheapest read whole and sorted; forbidding both shows whether the index can serve.
      await client.query('SET enable_seqscan = off');
      await client.query('SET enable_sort = off');
      let position = 0;
      const sql = selectDuePending({ skipLocked: ' FOR UPDATE SKIP LOCKED' }).replace(
        /\?/g,
        () => `$${++position}`,
      );
      const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, ['S1', Date.now(), 32]);
      const text = plan.rows.map((line) => line['QUERY PLAN']).join('\n');
      expect(text).toMatch(
        /Index Scan using webhook_deliveries_due_by_subscription on webhook_deliveries d\b/,
      );
      expect(text).not.toContain('Sort');
      expect(text).not.toContain('Seq Scan');
    } finally {
      await client.end();
      await drop();
    }
  });
});
