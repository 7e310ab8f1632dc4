import type { Migration } from '../../migration.ts';

/**
 * SQLite's migration of the same name: the claim reads a subscription's waiting deliveries by due
 * time, then sequence, from the index and stops once the claim is full, never reading the backlog
 * of a down endpoint that waits out its backoff.
 */
export const webhookDueOrderIndex: Migration = {
  version: 8,
  name: 'webhook due order index',
  sql: `
DROP INDEX webhook_deliveries_due_by_subscription;
CREATE INDEX webhook_deliveries_due_by_subscription ON webhook_deliveries (subscription_id, next_attempt_at, sequence)
  WHERE status = 'pending';
`,
};
