import type { Migration } from '../../migration.ts';

/**
 * Webhook subscriptions and the outbox of their deliveries (model/webhook.ts), as the SQLite migration of the same name has them. The outbox's cursor
 * starts at the feed's head, and each subscription records the head when it was made
 * (`from_sequence`): a subscription hears of changes made after it, never of the history.
 * Deliveries stay after they succeed: they are the delivery log. Times are epoch milliseconds.
 */
export const webhooks: Migration = {
  version: 5,
  name: 'webhooks',
  sql: `
CREATE TABLE webhook_subscriptions (
  id text PRIMARY KEY,
  client_id text NOT NULL,
  url text NOT NULL,
  description text,
  event_types text NOT NULL,
  enabled boolean NOT NULL,
  disabled_reason text CHECK (disabled_reason IN ('admin', 'gone')),
  failing_since bigint,
  last_success_at bigint,
  last_failure_at bigint,
  last_error text,
  secret_sealed text NOT NULL,
  previous_secret_sealed text,
  previous_secret_expires_at bigint,
  created_at bigint NOT NULL,
  created_by_user_id text NOT NULL,
  created_by_user_name text NOT NULL,
  updated_at bigint NOT NULL,
  from_sequence bigint NOT NULL,
  version bigint NOT NULL DEFAULT 1
);
CREATE INDEX webhook_subscriptions_client ON webhook_subscriptions (client_id, created_at);

CREATE TABLE webhook_outbox_cursor (
  id integer PRIMARY KEY CHECK (id = 1),
  through bigint NOT NULL
);
INSERT INTO webhook_outbox_cursor (id, through) SELECT 1, coalesce(max(sequence), 0) FROM change_feed;

CREATE TABLE webhook_deliveries (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  subscription_id text NOT NULL,
  sequence bigint NOT NULL,
  event_type text NOT NULL,
  entity_key text NOT NULL,
  entity_id text NOT NULL,
  occurred_at bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivering', 'succeeded', 'failed', 'cancelled')),
  attempts bigint NOT NULL DEFAULT 0,
  failed_attempts bigint NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  claim text,
  lease_until bigint,
  last_attempt_at bigint,
  last_status_code bigint,
  last_error text,
  last_latency_ms bigint,
  delivered_at bigint,
  created_at bigint NOT NULL,
  UNIQUE (subscription_id, sequence)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (subscription_id, sequence)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_record_order ON webhook_deliveries (subscription_id, entity_key, sequence)
  WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leases ON webhook_deliveries (lease_until) WHERE status = 'delivering';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, seq);
CREATE INDEX webhook_deliveries_occurred ON webhook_deliveries (subscription_id, occurred_at);

CREATE TABLE webhook_attempts (
  delivery_id text NOT NULL,
  attempt bigint NOT NULL,
  started_at bigint NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('delivered', 'retry', 'gone', 'refused')),
  status_code bigint,
  latency_ms bigint NOT NULL,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);
`,
};
