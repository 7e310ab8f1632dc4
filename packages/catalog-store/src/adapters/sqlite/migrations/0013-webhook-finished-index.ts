import type { Migration } from '../../migration.ts';

/**
 * The delivery log's retention finds the finished deliveries queued before its cutoff through an
 * index of their own. Without it, an hourly prune that had nothing old enough to delete read every
 * delivery, waiting ones included, inside a write transaction.
 */
export const webhookFinishedIndex: Migration = {
  version: 13,
  name: 'webhook finished deliveries index',
  sql: `
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at)
  WHERE status IN ('succeeded', 'failed', 'cancelled');
`,
};
