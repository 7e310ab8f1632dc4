import type { Migration } from '../../migration.ts';

/**
 * Webhook subscriptions and the outbox of their deliveries (model/webhook.ts). The outbox's cursor
 * starts at the feed's head, and each subscription records the head when it was made
 * (`from_sequence`): a subscription hears of changes made after it, never of the history.
 * Deliveries stay after they succeed: they are the delivery log. Times are epoch milliseconds.
 */
export const webhooks: Migration = {
  version: 11,
  name: 'webhooks',
  sql: `
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  url TEXT NOT NULL,
  description TEXT,
  event_types TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  disabled_reason TEXT CHECK (disabled_reason IN ('admin', 'gone')),
  failing_since INTEGER,
  last_success_at INTEGER,
  last_failure_at INTEGER,
  last_error TEXT,
  secret_sealed TEXT NOT NULL,
  previous_secret_sealed TEXT,
  previous_secret_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_by_user_name TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  from_sequence INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX webhook_subscriptions_client ON webhook_subscriptions (client_id, created_at);

CREATE TABLE webhook_outbox_cursor (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through INTEGER NOT NULL
) STRICT;
INSERT INTO webhook_outbox_cursor (id, through) SELECT 1, coalesce(max(sequence), 0) FROM change_feed;

CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  subscription_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  entity_key TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  claim TEXT,
  lease_until INTEGER,
  last_attempt_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT,
  last_latency_ms INTEGER,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  UNIQUE (subscription_id, sequence)
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (subscription_id, sequence)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_record_order ON webhook_deliveries (subscription_id, entity_key, sequence)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leases ON webhook_deliveries (lease_until) WHERE status = 'delivering';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, seq);
CREATE INDEX webhook_deliveries_occurred ON webhook_deliveries (subscription_id, occurred_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retry', 'gone', 'refused')),
  status_code INTEGER,
  latency_ms INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
) STRICT;
`,
};
