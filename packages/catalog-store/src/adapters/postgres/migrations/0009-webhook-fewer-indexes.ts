import type { Migration } from '../../migration.ts';

/**
 * SQLite's migration of the same name: the round's probe and the queue depth read through the
 * per-subscription indexes, and each delivery no longer writes three more.
 */
export const webhookFewerIndexes: Migration = {
  version: 9,
  name: 'webhook fewer indexes',
  sql: `
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_pending;
DROP INDEX webhook_deliveries_leases;
`,
};
