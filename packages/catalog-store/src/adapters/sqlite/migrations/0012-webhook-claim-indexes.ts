import type { Migration } from '../../migration.ts';

/**
 * A subscription's due deliveries and its claims in flight, each found through an index of its
 * own. Without statistics SQLite took `webhook_deliveries_occurred (subscription_id, occurred_at)`
 * for "has this subscription anything due" and "how many of its deliveries are in flight", and so
 * read the subscription's whole delivery log, succeeded rows included, on every claim: with 10
 * subscriptions and 18,000 deliveries the worker sent 40 events a second. An index with the
 * subscription and the time compared leaves the planner no worse choice, and reads only what is
 * waiting or under way.
 */
export const webhookClaimIndexes: Migration = {
  version: 12,
  name: 'webhook claim indexes',
  sql: `
CREATE INDEX webhook_deliveries_due_by_subscription ON webhook_deliveries (subscription_id, next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leases_by_subscription ON webhook_deliveries (subscription_id, lease_until)
  WHERE status = 'delivering';
`,
};
