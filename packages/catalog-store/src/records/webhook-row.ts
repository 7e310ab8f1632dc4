import { toIso, toIsoOrNull } from '../adapters/timestamps.ts';
import { isClientUsable, type StoredClient } from '../model/m2m-client.ts';
import type {
  StoredWebhookSubscription,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDisabledReason,
  WebhookEventType,
} from '../model/webhook.ts';

// The webhook tables' rows, the same columns on both engines, and how they map to the model. A flag
// reads as 0/1 on SQLite and as a boolean on PostgreSQL.

export interface SubscriptionRow {
  id: string;
  client_id: string;
  url: string;
  description: string | null;
  event_types: string;
  enabled: number | boolean;
  disabled_reason: WebhookDisabledReason | null;
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  last_error: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  created_at: number;
  created_by_user_id: string;
  created_by_user_name: string;
  updated_at: number;
  version: number;
  client_status: StoredClient['status'];
  client_expires_at: number | null;
}

export const SELECT_SUBSCRIPTION = `SELECT s.id, s.client_id, s.url, s.description, s.event_types, s.enabled,
  s.disabled_reason, s.failing_since, s.last_success_at, s.last_failure_at, s.last_error, s.secret_sealed,
  s.previous_secret_sealed, s.previous_secret_expires_at, s.created_at, s.created_by_user_id,
  s.created_by_user_name, s.updated_at, s.version, c.status AS client_status, c.expires_at AS client_expires_at
  FROM webhook_subscriptions s JOIN m2m_clients c ON c.client_id = s.client_id`;

/** The SQL condition "the subscription's client may still be served", for `c` at the time bound as `?`. */
export const CLIENT_USABLE = `c.status = 'active' AND (c.expires_at IS NULL OR c.expires_at > ?)`;

const isoOrNull = (value: number | null) => (value === null ? null : toIso(Number(value)));

export function toSubscription(row: SubscriptionRow, now: number = Date.now()): StoredWebhookSubscription {
  return {
    id: row.id,
    clientId: row.client_id,
    url: row.url,
    description: row.description,
    eventTypes: JSON.parse(row.event_types) as WebhookEventType[],
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    failingSince: isoOrNull(row.failing_since),
    lastSuccessAt: isoOrNull(row.last_success_at),
    lastFailureAt: isoOrNull(row.last_failure_at),
    lastError: row.last_error,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt: isoOrNull(row.previous_secret_expires_at),
    createdAt: toIso(Number(row.created_at)),
    createdBy: { userId: row.created_by_user_id, userName: row.created_by_user_name },
    updatedAt: toIso(Number(row.updated_at)),
    version: Number(row.version),
    clientActive: isClientUsable(
      {
        status: row.client_status,
        expiresAt: toIsoOrNull(row.client_expires_at === null ? null : Number(row.client_expires_at)),
      },
      new Date(now),
    ),
  };
}

export interface DeliveryRow {
  seq: number;
  id: string;
  subscription_id: string;
  sequence: number;
  event_type: WebhookEventType;
  entity_id: string;
  occurred_at: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  failed_attempts: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  delivered_at: number | null;
  created_at: number;
}

export const DELIVERY_COLUMNS = `d.seq, d.id, d.subscription_id, d.sequence, d.event_type, d.entity_id, d.occurred_at,
  d.status, d.attempts, d.failed_attempts, d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error,
  d.last_latency_ms, d.delivered_at, d.created_at`;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    sequence: Number(row.sequence),
    eventType: row.event_type,
    entityId: row.entity_id,
    occurredAt: toIso(Number(row.occurred_at)),
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    lastAttemptAt: isoOrNull(row.last_attempt_at),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    lastLatencyMs: row.last_latency_ms === null ? null : Number(row.last_latency_ms),
    deliveredAt: isoOrNull(row.delivered_at),
    createdAt: toIso(Number(row.created_at)),
  };
}
