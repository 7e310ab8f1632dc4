import type { Migration } from '../../migration.ts';

/**
 * SQLite's migration of the same name: the retention's prune reads the finished deliveries queued
 * before its cutoff through their own index, not the whole delivery log.
 */
export const webhookFinishedIndex: Migration = {
  version: 7,
  name: 'webhook finished deliveries index',
  sql: `
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (created_at)
  WHERE status IN ('succeeded', 'failed', 'cancelled');
`,
};
