import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/adapters/sqlite/index.ts';
import { catalogDatabasePath } from '../../src/index.ts';
import { SELECT_PRUNABLE_DELIVERIES, selectDuePending } from '../../src/records/webhook-outbox-records.ts';
import { tempDataDir } from '../support/sqlite-factory.ts';

describe('webhook query plans on SQLite', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the prune finds old finished deliveries through their own index, not by reading the whole delivery log', () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    migrateDatabase(path);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${SELECT_PRUNABLE_DELIVERIES}`)
        .all(Date.now(), 1000) as Array<{ detail: string }>;
      const details = plan.map((step) => step.detail).join('; ');
      expect(details).toContain('USING INDEX webhook_deliveries_finished');
      expect(details).not.toMatch(/SCAN webhook_deliveries(?! USING)/);
      expect(details).not.toContain('TEMP B-TREE');
    } finally {
      db.close();
    }
  });

  it("the claim reads a subscription's due deliveries in due order from their index, never the deliveries still waiting out a backoff, and needs no sort", () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    migrateDatabase(path);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${selectDuePending({ skipLocked: '' })}`)
        .all('S1', Date.now(), 32) as Array<{ detail: string }>;
      const details = plan.map((step) => step.detail).join('; ');
      expect(details).toContain(
        'SEARCH d USING INDEX webhook_deliveries_due_by_subscription (subscription_id=? AND next_attempt_at<?)',
      );
      expect(details).not.toContain('TEMP B-TREE');
    } finally {
      db.close();
    }
  });
});
