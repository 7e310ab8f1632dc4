import type { Migration } from '../../migration.ts';

/**
 * Three indexes of the delivery log that every delivery wrote twice (on its way in and on its way
 * out of waiting or under way) for readers that the per-subscription indexes serve as well: the
 * round's probe ("is anything due") asks each subscription through `…_due_by_subscription` and
 * `…_leases_by_subscription`, and the queue depth counts through them. Every delivery is written
 * under the file's one write lock that the catalogue's writers wait for, so each index it need not
 * touch is lock time given back to them.
 */
export const webhookFewerIndexes: Migration = {
  version: 15,
  name: 'webhook fewer indexes',
  sql: `
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_pending;
DROP INDEX webhook_deliveries_leases;
`,
};
