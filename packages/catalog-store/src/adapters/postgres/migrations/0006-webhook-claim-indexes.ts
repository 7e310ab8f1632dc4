import type { Migration } from '../../migration.ts';

/**
 * The claim indexes of SQLite's migration of the same name: a subscription's due deliveries and
 * its claims in flight each read through an index of their own, whatever the planner's statistics
 * say, rather than through the subscription's whole delivery log.
 */
export const webhookClaimIndexes: Migration = {
  version: 6,
  name: 'webhook claim indexes',
  sql: `
CREATE INDEX webhook_deliveries_due_by_subscription ON webhook_deliveries (subscription_id, next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leases_by_subscription ON webhook_deliveries (subscription_id, lease_until)
  WHERE status = 'delivering';
`,
};
