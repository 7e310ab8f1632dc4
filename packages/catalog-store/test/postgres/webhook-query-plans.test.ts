import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresRecordStore } from '../../src/adapters/postgres/index.ts';
import {
  numberPlaceholders,
  POSTGRES_DIALECT,
} from '../../src/adapters/postgres/records/postgres-record-engine.ts';
import {
  SELECT_PRUNABLE_DELIVERIES,
  SELECT_QUEUED_COUNT,
  SELECT_SOMETHING_DUE,
  selectDuePending,
} from '../../src/records/webhook-outbox-records.ts';
import { freshSchema } from '../support/postgres-factory.ts';

/**
 * PostgreSQL's plan for `sql` (with `?` placeholders) in a freshly migrated schema, with the
 * `forbidden` plan kinds turned off: an empty table is cheapest read whole (and sorted), and
 * forbidding that shows whether the index can serve.
 */
async function planOf(sql: string, params: unknown[], forbidden: readonly string[]): Promise<string> {
  const { url, schema, drop } = await freshSchema();
  const store = await openPostgresRecordStore({ url, schema, maxConnections: 1 });
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${client.escapeIdentifier(schema)}`);
    for (const setting of forbidden) await client.query(`SET ${setting} = off`);
    const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${numberPlaceholders(sql)}`, params);
    return plan.rows.map((line) => line['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
    await drop();
  }
}

describe('webhook query plans on PostgreSQL', () => {
  it('the prune can find old finished deliveries through their own index, not only by reading the whole delivery log', async () => {
    const text = await planOf(SELECT_PRUNABLE_DELIVERIES, [Date.now(), 1000], ['enable_seqscan']);
    expect(text).toContain('webhook_deliveries_finished');
    expect(text).not.toContain('Seq Scan');
  });

  it("the claim can read a subscription's due deliveries in due order from their index, with no sort", async () => {
    const sql = selectDuePending(POSTGRES_DIALECT);
    const text = await planOf(sql, ['S1', Date.now(), 32], ['enable_seqscan', 'enable_sort']);
    expect(text).toMatch(/Index Scan using webhook_deliveries_due_by_subscription on webhook_deliveries d\b/);
    expect(text).not.toContain('Sort');
    expect(text).not.toContain('Seq Scan');
  });

  it("the round's probe asks each subscription through its own due and lease indexes, never reading the delivery log", async () => {
    const now = Date.now();
    const text = await planOf(`SELECT ${SELECT_SOMETHING_DUE}`, [now, now], ['enable_seqscan']);
    expect(text).toContain('webhook_deliveries_due_by_subscription');
    expect(text).toContain('webhook_deliveries_leases_by_subscription');
    expect(text).not.toContain('Seq Scan on webhook_deliveries');
  });

  it('the queue depth counts the waiting and claimed deliveries through indexes, never reading the delivery log', async () => {
    const text = await planOf(`SELECT ${SELECT_QUEUED_COUNT}`, [], ['enable_seqscan']);
    expect(text).toMatch(/Index (Only )?Scan using webhook_deliveries_\w+ on webhook_deliveries/);
    expect(text).not.toContain('Seq Scan on webhook_deliveries');
  });
});
