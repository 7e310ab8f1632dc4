import type { Migration } from '../../migration.ts';

/**
 * The claim reads a subscription's waiting deliveries in the order of their due time (then their
 * sequence) and stops once the claim is full. It read them in sequence order before, and checked
 * each one's time: with an endpoint down, every round walked the whole backlog waiting out its
 * backoff, inside the write transaction. The sequence joins the index so that the order needs no
 * sort.
 */
export const webhookDueOrderIndex: Migration = {
  version: 14,
  name: 'webhook due order index',
  sql: `
DROP INDEX webhook_deliveries_due_by_subscription;
CREATE INDEX webhook_deliveries_due_by_subscription ON webhook_deliveries (subscription_id, next_attempt_at, sequence)
  WHERE status = 'pending';
`,
};
