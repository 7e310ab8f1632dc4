import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/adapters/sqlite/index.ts';
import { SQLITE_DIALECT } from '../../src/adapters/sqlite/records/sqlite-record-engine.ts';
import { catalogDatabasePath } from '../../src/index.ts';
import {
  SELECT_PRUNABLE_DELIVERIES,
  SELECT_QUEUED_COUNT,
  SELECT_SOMETHING_DUE,
  selectDuePending,
} from '../../src/records/webhook-outbox-records.ts';
import { tempDataDir } from '../support/sqlite-factory.ts';

describe('webhook query plans on SQLite', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** SQLite's plan for `sql` on a freshly migrated catalogue, its steps joined. */
  function planOf(sql: string, ...params: Array<string | number>): string {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    migrateDatabase(path);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      return plan.map((step) => step.detail).join('; ');
    } finally {
      db.close();
    }
  }

  it('the prune finds old finished deliveries through their own index, not by reading the whole delivery log', () => {
    const details = planOf(SELECT_PRUNABLE_DELIVERIES, Date.now(), 1000);
    expect(details).toContain('USING INDEX webhook_deliveries_finished');
    expect(details).not.toMatch(/SCAN webhook_deliveries(?! USING)/);
    expect(details).not.toContain('TEMP B-TREE');
  });

  it("the claim reads a subscription's due deliveries in due order from their index, never the deliveries still waiting out a backoff, and needs no sort", () => {
    const details = planOf(selectDuePending(SQLITE_DIALECT), 'S1', Date.now(), 32);
    expect(details).toContain(
      'SEARCH d USING INDEX webhook_deliveries_due_by_subscription (subscription_id=? AND next_attempt_at<?)',
    );
    expect(details).not.toContain('TEMP B-TREE');
  });

  it("the round's probe asks each subscription through its own due and lease indexes, never reading the delivery log", () => {
    const now = Date.now();
    const details = planOf(`SELECT ${SELECT_SOMETHING_DUE}`, now, now);
    expect(details).toMatch(
      /SEARCH d USING (COVERING )?INDEX webhook_deliveries_due_by_subscription \(subscription_id=\? AND next_attempt_at<\?\)/,
    );
    expect(details).toMatch(
      /SEARCH d USING (COVERING )?INDEX webhook_deliveries_leases_by_subscription \(subscription_id=\? AND lease_until<\?\)/,
    );
    expect(details).not.toMatch(/SCAN (d|webhook_deliveries)(?! USING)/);
  });

  it('the queue depth counts the waiting and claimed deliveries through indexes, never reading the delivery log', () => {
    const details = planOf(`SELECT ${SELECT_QUEUED_COUNT}`);
    expect(details).toMatch(/SCAN webhook_deliveries USING (COVERING )?INDEX/);
    expect(details).not.toMatch(/SCAN webhook_deliveries(?! USING)/);
  });
});
