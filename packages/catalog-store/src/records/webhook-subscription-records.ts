import {
  secretRotatedEvent,
  subscriptionCreatedEvent,
  subscriptionDeletedEvent,
  subscriptionUpdatedEvent,
} from '../audit/webhook-subscription-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext } from '../model/audit-event.ts';
import type {
  NewWebhookSubscription,
  StoredWebhookSubscription,
  WebhookSecretRotation,
  WebhookSubscriptionPatch,
} from '../model/webhook.ts';
import { appendAuditEvent } from './audit-records.ts';
import { checkVersion, type ExpectedVersion } from './expected-version.ts';
import { type RecordWork, row, run, transactionTime } from './record-work.ts';
import { SELECT_SUBSCRIPTION, type SubscriptionRow, toSubscription } from './webhook-row.ts';

// Subscriptions as administrators write them; the outbox's rules are in webhook-outbox-records.ts.

export function* subscriptionRow(id: string): RecordWork<SubscriptionRow | undefined> {
  return yield* row<SubscriptionRow>(`${SELECT_SUBSCRIPTION} WHERE s.id = ?`, id);
}

function* existingSubscription(id: string): RecordWork<SubscriptionRow> {
  const found = yield* subscriptionRow(id);
  if (found === undefined) throw new NotFoundError('Webhook subscription', id);
  return found;
}

export function* createSubscription(
  input: NewWebhookSubscription,
  audit?: AuditContext,
): RecordWork<StoredWebhookSubscription> {
  if ((yield* row('SELECT client_id FROM m2m_clients WHERE client_id = ?', input.clientId)) === undefined)
    throw new NotFoundError('Client', input.clientId);
  const at = yield* transactionTime();
  yield* run(
    `INSERT INTO webhook_subscriptions (id, client_id, url, description, event_types, enabled, disabled_reason,
       secret_sealed, created_at, created_by_user_id, created_by_user_name, updated_at, from_sequence)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(sequence), 0) FROM change_feed))`,
    input.id,
    input.clientId,
    input.url,
    input.description,
    JSON.stringify(input.eventTypes),
    input.enabled ? 1 : 0,
    input.enabled ? null : 'admin',
    input.secretSealed,
    at,
    input.createdBy.userId,
    input.createdBy.userName,
    at,
  );
  const created = toSubscription(yield* existingSubscription(input.id), at);
  if (audit !== undefined) yield* appendAuditEvent(subscriptionCreatedEvent(audit, created));
  return created;
}

export function* updateSubscription(
  id: string,
  patch: WebhookSubscriptionPatch,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<StoredWebhookSubscription> {
  const currentRow = yield* existingSubscription(id);
  checkVersion('Webhook subscription', id, Number(currentRow.version), expected);
  const at = yield* transactionTime();
  const current = toSubscription(currentRow, at);
  const enabled = patch.enabled ?? current.enabled;
  // Enabling is an administrator saying the endpoint is fixed: the failing state and the reason go.
  const enabling = patch.enabled === true;
  yield* run(
    `UPDATE webhook_subscriptions SET url = ?, description = ?, event_types = ?, enabled = ?, disabled_reason = ?,
       failing_since = ?, updated_at = ?, version = version + 1 WHERE id = ?`,
    patch.url ?? current.url,
    patch.description === undefined ? current.description : patch.description,
    JSON.stringify(patch.eventTypes ?? current.eventTypes),
    enabled ? 1 : 0,
    enabled ? null : patch.enabled === false ? 'admin' : current.disabledReason,
    enabling ? null : currentRow.failing_since,
    at,
    id,
  );
  const updated = toSubscription(yield* existingSubscription(id), at);
  if (audit !== undefined) yield* appendAuditEvent(subscriptionUpdatedEvent(audit, current, updated));
  return updated;
}

export function* deleteSubscription(
  id: string,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<void> {
  const currentRow = yield* existingSubscription(id);
  checkVersion('Webhook subscription', id, Number(currentRow.version), expected);
  yield* run(
    'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE subscription_id = ?)',
    id,
  );
  yield* run('DELETE FROM webhook_deliveries WHERE subscription_id = ?', id);
  yield* run('DELETE FROM webhook_subscriptions WHERE id = ?', id);
  if (audit !== undefined)
    yield* appendAuditEvent(subscriptionDeletedEvent(audit, toSubscription(currentRow)));
}

export function* rotateSecret(
  id: string,
  rotation: WebhookSecretRotation,
  audit?: AuditContext,
): RecordWork<StoredWebhookSubscription> {
  const currentRow = yield* existingSubscription(id);
  const at = yield* transactionTime();
  const keepPrevious = rotation.previousSecretExpiresAt !== null;
  yield* run(
    `UPDATE webhook_subscriptions SET secret_sealed = ?, previous_secret_sealed = ?, previous_secret_expires_at = ?,
       updated_at = ?, version = version + 1 WHERE id = ?`,
    rotation.secretSealed,
    keepPrevious ? currentRow.secret_sealed : null,
    keepPrevious ? Date.parse(rotation.previousSecretExpiresAt as string) : null,
    at,
    id,
  );
  if (audit !== undefined)
    yield* appendAuditEvent(secretRotatedEvent(audit, id, rotation.previousSecretExpiresAt));
  return toSubscription(yield* existingSubscription(id), at);
}
