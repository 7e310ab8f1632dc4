import { randomInt, randomUUID } from 'node:crypto';
import {
  redeliveryEvent,
  subscriptionFailingEvent,
  subscriptionGoneEvent,
  subscriptionRecoveredEvent,
} from '../audit/webhook-subscription-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { Change } from '../model/change.ts';
import {
  type AttemptResult,
  type ClaimedDelivery,
  type ClaimOptions,
  type EnqueueResult,
  EVENT_TYPE_SCOPE,
  type RedeliverySelection,
  type WebhookEventType,
} from '../model/webhook.ts';
import { appendAuditEvent } from './audit-records.ts';
import { readChanges } from './change-feed-records.ts';
import type { SqlDialect } from './record-engine.ts';
import { type RecordWork, row, rows, run, transactionTime } from './record-work.ts';
import { CLIENT_USABLE, DELIVERY_COLUMNS, type DeliveryRow, toDelivery } from './webhook-row.ts';

// The outbox: change-feed entries turned into one delivery per subscription that may hear of them,
// claimed for an attempt, and settled by the attempt's result.

// In ASCII order, so that ids compare as their times do (SQLite compares text bytewise).
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME_DIGITS = 8; // 62^8 ms reach past the year 8000
const RANDOM_DIGITS = 18; // some 107 bits

/**
 * `msg_` and 26 alphanumerics: the time of its creation in milliseconds (8 base-62 digits), then 18
 * drawn uniformly. The event id a receiver deduplicates by. Ids made together sort together, so each
 * round's thousands of deliveries add to the end of the id index and of the attempts' key, where
 * uniformly drawn ids dirtied a page of each index per row, and the commit wrote them all.
 */
export function newMessageId(now = Date.now()): string {
  let time = '';
  for (let rest = now, i = 0; i < TIME_DIGITS; i += 1, rest = Math.floor(rest / 62))
    time = BASE62[rest % 62] + time;
  let id = `msg_${time}`;
  for (let i = 0; i < RANDOM_DIGITS; i += 1) id += BASE62[randomInt(62)];
  return id;
}

interface ListeningSubscription {
  id: string;
  from_sequence: number;
  event_types: string;
  scopes: string;
}

interface ProductFacts {
  id: string;
  created_at: number;
  updated_at: number;
  archived: number | boolean;
}

/**
 * Due times and leases are read off the wall clock, never the transaction time: that runs ahead of
 * the clock under a burst of writes, and by as much as the source's did on a copied catalogue, and
 * would put a new delivery, or the end of a dead process's lease, that far in the future. Records
 * are stamped with the transaction time as every other write is.
 */
const scheduleNow = (): number => Date.now();

/** The cursor, locked for the rest of the transaction: concurrent enqueuers take turns. */
function* lockCursor(): RecordWork<number> {
  const found = yield* row<{ through: number }>(
    'UPDATE webhook_outbox_cursor SET through = through WHERE id = 1 RETURNING through',
  );
  return Number(found?.through ?? 0);
}

export function* cursorAndHead(): RecordWork<{ through: number; head: number }> {
  const found = yield* row<{ through: number; head: number | null }>(
    'SELECT (SELECT through FROM webhook_outbox_cursor WHERE id = 1) AS through, (SELECT max(sequence) FROM change_feed) AS head',
  );
  return { through: Number(found?.through ?? 0), head: Number(found?.head ?? 0) };
}

/**
 * Whether anything is due at `now`, asked of each subscription through its own indexes (…_by_subscription):
 * a waiting delivery's time come, or a claim's lease run out. Parameters: now, now.
 */
export const SELECT_SOMETHING_DUE = `EXISTS (SELECT 1 FROM webhook_subscriptions s
  WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= ?)
    OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'delivering' AND d.lease_until <= ?))`;

/**
 * The deliveries waiting or under way, counted through the partial indexes of each status (a
 * delivery log of millions holds a few of them).
 */
export const SELECT_QUEUED_COUNT = `((SELECT count(*) FROM webhook_deliveries WHERE status = 'pending')
  + (SELECT count(*) FROM webhook_deliveries WHERE status = 'delivering'))`;

/**
 * What a worker's round would find, read without the write lock: the cursor, the feed's head, and
 * whether anything is due at `now`.
 */
export function* roundProbe(now: number): RecordWork<{ through: number; head: number; due: boolean }> {
  const found = yield* row<{ through: number; head: number | null; due: number | boolean }>(
    `SELECT (SELECT through FROM webhook_outbox_cursor WHERE id = 1) AS through, (SELECT max(sequence) FROM change_feed) AS head,
       ${SELECT_SOMETHING_DUE} AS due`,
    now,
    now,
  );
  return {
    through: Number(found?.through ?? 0),
    head: Number(found?.head ?? 0),
    due: Boolean(found?.due),
  };
}

/**
 * Whether some enabled subscription of a usable client has fewer than `ahead` deliveries waiting
 * and due: each is counted up to `ahead` through its own index (…_due_by_subscription).
 */
export function* someSubscriptionShort(now: number, ahead: number): RecordWork<boolean> {
  const found = yield* row<{ short: number | boolean }>(
    `SELECT EXISTS (SELECT 1 FROM webhook_subscriptions s JOIN m2m_clients c ON c.client_id = s.client_id
       WHERE s.enabled AND ${CLIENT_USABLE}
         AND (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id
           AND d.status = 'pending' AND d.next_attempt_at <= ? LIMIT ?) waiting) < ?) AS short`,
    now,
    now,
    ahead,
    ahead,
  );
  return Boolean(found?.short);
}

/**
 * The event a product's feed entry stands for, told from the record as it is now: created when the
 * entry's time is the product's creation, archived when the entry is the product's latest write and
 * left it archived, changed otherwise. A later write never turns an entry into another kind except
 * `archived` into `changed`, and that later write's own entry then says archived.
 */
function productEventType(change: Change, facts: ProductFacts | undefined): WebhookEventType {
  const at = Date.parse(change.changedAt);
  if (facts === undefined) return 'product.changed';
  if (Number(facts.created_at) === at) return 'product.created';
  if (facts.archived && Number(facts.updated_at) === at) return 'product.archived';
  return 'product.changed';
}

const DELIVERY_RECORD = [
  ['id', 'text'],
  ['subscription_id', 'text'],
  ['sequence', 'bigint'],
  ['event_type', 'text'],
  ['entity_key', 'text'],
  ['entity_id', 'text'],
  ['occurred_at', 'bigint'],
  ['status', 'text'],
  ['claim', 'text'],
  ['lease_until', 'bigint'],
] as const;

type NewDelivery = {
  id: string;
  subscription_id: string;
  sequence: number;
  event_type: WebhookEventType;
  entity_key: string;
  entity_id: string;
  occurred_at: number;
  status: 'pending' | 'delivering';
  claim: string | null;
  lease_until: number | null;
};

/** A round's claim, as far as it got before the new changes were queued. */
export interface ClaimInProgress {
  options: ClaimOptions;
  /** Deliveries the round has claimed already (over every subscription). */
  claimed: number;
}

export interface EnqueuedAndClaimed {
  enqueued: EnqueueResult;
  /** The new deliveries written claimed, in feed order. */
  claimed: ClaimedDelivery[];
}

export function* enqueueChanges(dialect: SqlDialect, limit: number): RecordWork<EnqueueResult> {
  return (yield* enqueueAndClaim(dialect, limit, null)).enqueued;
}

/**
 * `enqueueChanges`, and, with `claiming`, the new deliveries that the round's claim would take next
 * written claimed at once: a new delivery is due the moment it is queued and comes after every
 * delivery due before it, so the claim that follows the queueing in the same transaction would take
 * it if its subscription has room and it is the head of its record's waiting events. Written
 * waiting and then claimed, each delivery cost two writes of its row and of its indexes under
 * the write lock; written claimed, one.
 */
export function* enqueueAndClaim(
  dialect: SqlDialect,
  limit: number,
  claiming: ClaimInProgress | null,
): RecordWork<EnqueuedAndClaimed> {
  const at = yield* transactionTime();
  const cursor = yield* lockCursor();
  const subscriptions = yield* rows<ListeningSubscription>(
    `SELECT s.id, s.from_sequence, s.event_types, c.scopes FROM webhook_subscriptions s JOIN m2m_clients c ON c.client_id = s.client_id
     WHERE s.enabled AND ${CLIENT_USABLE} ORDER BY s.id`,
    at,
  );
  const { head } = yield* cursorAndHead();
  // Nobody listens: the entries so far concern no one, however many (a bulk load, a copied store).
  if (subscriptions.length === 0) {
    yield* run('UPDATE webhook_outbox_cursor SET through = ? WHERE id = 1', head);
    return { enqueued: { through: head, head, queued: 0 }, claimed: [] };
  }
  const changes = yield* readChanges(cursor, limit);
  const through = changes.at(-1)?.sequence ?? cursor;
  if (changes.length === 0) return { enqueued: { through, head, queued: 0 }, claimed: [] };

  const listeners = subscriptions.map((subscription) => {
    const scopes = new Set(JSON.parse(subscription.scopes) as string[]);
    const types = (JSON.parse(subscription.event_types) as WebhookEventType[]).filter((type) =>
      scopes.has(EVENT_TYPE_SCOPE[type]),
    );
    return { id: subscription.id, after: Number(subscription.from_sequence), types: new Set(types) };
  });
  const productIds = [...new Set(changes.filter((c) => c.entity === 'product').map((c) => c.entityId))];
  const facts = new Map<string, ProductFacts>();
  if (productIds.length > 0)
    for (const found of yield* rows<ProductFacts>(
      `SELECT id, created_at, updated_at, archived FROM products WHERE ${dialect.inList('id')}`,
      dialect.list(productIds),
    ))
      facts.set(found.id, found);

  const deliveries: NewDelivery[] = [];
  for (const change of changes) {
    let type: WebhookEventType;
    if (change.entity === 'product') type = productEventType(change, facts.get(change.entityId));
    else if (change.entity === 'brand') type = 'brand.changed';
    else continue;
    for (const listener of listeners)
      if (listener.types.has(type) && change.sequence > listener.after)
        deliveries.push({
          id: newMessageId(),
          subscription_id: listener.id,
          sequence: change.sequence,
          event_type: type,
          entity_key: `${change.entity}:${change.entityId}`,
          entity_id: change.entityId,
          occurred_at: Date.parse(change.changedAt),
          status: 'pending',
          claim: null,
          lease_until: null,
        });
  }
  const now = scheduleNow();
  const claimedNow =
    claiming === null || deliveries.length === 0
      ? new Map<string, ClaimingSubscription>()
      : yield* claimNewDeliveries(dialect, deliveries, claiming, now);
  // Which rows were written matters only for those claimed here: a batch that claims none skips RETURNING.
  const inserted = new Set<string>();
  for (let start = 0; start < deliveries.length; start += 1000) {
    const batch = deliveries.slice(start, start + 1000);
    const insert = `INSERT INTO webhook_deliveries (id, subscription_id, sequence, event_type, entity_key, entity_id, occurred_at,
         status, claim, lease_until, next_attempt_at, created_at)
       SELECT r.id, r.subscription_id, r.sequence, r.event_type, r.entity_key, r.entity_id, r.occurred_at,
         r.status, r.claim, r.lease_until, ?, ? FROM ${dialect.jsonRecords(DELIVERY_RECORD)} WHERE TRUE
       ON CONFLICT (subscription_id, sequence) DO NOTHING`;
    if (!batch.some((delivery) => delivery.claim !== null)) {
      yield* run(insert, now, at, JSON.stringify(batch));
      continue;
    }
    for (const found of yield* rows<{ id: string }>(`${insert} RETURNING id`, now, at, JSON.stringify(batch)))
      inserted.add(found.id);
  }
  yield* run('UPDATE webhook_outbox_cursor SET through = ? WHERE id = 1', through);
  const claimed: ClaimedDelivery[] = [];
  for (const delivery of deliveries) {
    const subscription = claimedNow.get(delivery.subscription_id);
    // A delivery already queued (a change queued twice) was not written, and is not sent from here.
    if (delivery.claim === null || subscription === undefined || !inserted.has(delivery.id)) continue;
    claimed.push({
      ...sentWith(subscription, delivery.claim, at),
      id: delivery.id,
      subscriptionId: delivery.subscription_id,
      sequence: delivery.sequence,
      eventType: delivery.event_type,
      entityId: delivery.entity_id,
      occurredAt: new Date(delivery.occurred_at).toISOString(),
      status: 'delivering',
      attempts: 0,
      nextAttemptAt: new Date(now).toISOString(),
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      lastLatencyMs: null,
      deliveredAt: null,
      createdAt: new Date(at).toISOString(),
      failedAttempts: 0,
    });
  }
  return { enqueued: { through, head, queued: deliveries.length }, claimed };
}

/**
 * Marks, in feed order, the new deliveries that the round's claim takes: those whose subscription
 * still has room and that are the head of their record's waiting events (no earlier one of the
 * same subscription and record waiting or under way, queued before or in this batch). Returns the
 * subscriptions that got any, with what their claimed deliveries are sent with.
 */
function* claimNewDeliveries(
  dialect: SqlDialect,
  deliveries: NewDelivery[],
  claiming: ClaimInProgress,
  now: number,
): RecordWork<Map<string, ClaimingSubscription>> {
  let room = claiming.options.limit - claiming.claimed;
  const subscriptions = new Map<string, ClaimingSubscription>();
  if (room <= 0) return subscriptions;
  for (const subscription of yield* rows<ClaimingSubscription>(
    `SELECT s.id, s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at,
       (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'delivering'
          AND f.lease_until > ?) AS in_flight
     FROM webhook_subscriptions s WHERE ${dialect.inList('s.id')}`,
    now,
    dialect.list([...new Set(deliveries.map((delivery) => delivery.subscription_id))]),
  ))
    subscriptions.set(subscription.id, subscription);
  const waiting = new Set<string>();
  for (const found of yield* rows<{ subscription_id: string; entity_key: string }>(
    `SELECT DISTINCT e.subscription_id, e.entity_key FROM webhook_deliveries e
     JOIN ${dialect.jsonRecords(WAITING_KEY_RECORD)} ON e.subscription_id = r.subscription_id AND e.entity_key = r.entity_key
     WHERE e.status IN ('pending', 'delivering')`,
    JSON.stringify(deliveries.map(({ subscription_id, entity_key }) => ({ subscription_id, entity_key }))),
  ))
    waiting.add(`${found.subscription_id} ${found.entity_key}`);
  const claims = new Map<string, { claim: string; room: number }>();
  const claimedBy = new Map<string, ClaimingSubscription>();
  for (const delivery of deliveries) {
    const key = `${delivery.subscription_id} ${delivery.entity_key}`;
    if (waiting.has(key)) continue;
    waiting.add(key);
    const subscription = subscriptions.get(delivery.subscription_id);
    if (subscription === undefined || room <= 0) continue;
    let taken = claims.get(delivery.subscription_id);
    if (taken === undefined) {
      taken = {
        claim: randomUUID(),
        room: claiming.options.perSubscription - Number(subscription.in_flight),
      };
      claims.set(delivery.subscription_id, taken);
    }
    if (taken.room <= 0) continue;
    taken.room -= 1;
    room -= 1;
    delivery.status = 'delivering';
    delivery.claim = taken.claim;
    delivery.lease_until = now + claiming.options.leaseMs;
    claimedBy.set(delivery.subscription_id, subscription);
  }
  return claimedBy;
}

const WAITING_KEY_RECORD = [
  ['subscription_id', 'text'],
  ['entity_key', 'text'],
] as const;

interface ClaimingSubscription {
  id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  in_flight: number;
}

/** What a claimed delivery of `subscription` is sent with: the secrets current at `at`. */
function sentWith(
  subscription: ClaimingSubscription,
  claim: string,
  at: number,
): Pick<ClaimedDelivery, 'claim' | 'url' | 'secretsSealed'> {
  const secretsSealed = [subscription.secret_sealed];
  if (
    subscription.previous_secret_sealed !== null &&
    subscription.previous_secret_expires_at !== null &&
    Number(subscription.previous_secret_expires_at) > at
  )
    secretsSealed.push(subscription.previous_secret_sealed);
  return { claim, url: subscription.url, secretsSealed };
}

/** Never a delivery whose record has an earlier one of the subscription still waiting or under way. */
const HEAD_OF_ITS_RECORD = `NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.subscription_id = d.subscription_id
  AND e.entity_key = d.entity_key AND e.sequence < d.sequence AND e.status IN ('pending', 'delivering'))`;

/**
 * A subscription's deliveries claimed by a process whose lease ran out (it died): claimed again
 * first. Parameters: subscription, now, limit.
 */
export const selectExpiredClaims = (dialect: Pick<SqlDialect, 'skipLocked'>) =>
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
   WHERE d.subscription_id = ? AND d.status = 'delivering' AND d.lease_until <= ? AND ${HEAD_OF_ITS_RECORD}
   ORDER BY d.lease_until LIMIT ?${dialect.skipLocked}`;

/**
 * A subscription's waiting deliveries whose time has come, the longest due first, read in that
 * order from `webhook_deliveries_due_by_subscription` (subscription, due time, sequence): the
 * read stops once the claim is full, and retries still in their backoff (a down endpoint's whole
 * backlog) are never read. Parameters: subscription, now, limit.
 */
export const selectDuePending = (dialect: Pick<SqlDialect, 'skipLocked'>) =>
  `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
   WHERE d.subscription_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ? AND ${HEAD_OF_ITS_RECORD}
   ORDER BY d.next_attempt_at, d.sequence LIMIT ?${dialect.skipLocked}`;

export function* claimDue(dialect: SqlDialect, options: ClaimOptions): RecordWork<ClaimedDelivery[]> {
  const at = yield* transactionTime();
  const now = scheduleNow();
  // A revoked or expired client's deliveries stop at once: none is claimed again. Each status is
  // cancelled through its own index (…_by_subscription): "pending or delivering" in one statement
  // read the subscription's whole log on every claim.
  for (const [status, time] of [
    ['pending', 'next_attempt_at'],
    ['delivering', 'lease_until'],
  ] as const)
    yield* run(
      `UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, claim = NULL, lease_until = NULL,
         last_error = 'not sent: the client is revoked or expired'
       WHERE status = '${status}' AND ${time} IS NOT NULL AND subscription_id IN (
         SELECT s.id FROM webhook_subscriptions s JOIN m2m_clients c ON c.client_id = s.client_id WHERE NOT (${CLIENT_USABLE}))`,
      at,
    );
  const subscriptions = yield* rows<ClaimingSubscription>(
    `SELECT s.id, s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_expires_at,
       (SELECT count(*) FROM webhook_deliveries f WHERE f.subscription_id = s.id AND f.status = 'delivering'
          AND f.lease_until > ?) AS in_flight
     FROM webhook_subscriptions s JOIN m2m_clients c ON c.client_id = s.client_id
     WHERE s.enabled AND ${CLIENT_USABLE}
       AND (EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending'
              AND d.next_attempt_at <= ?)
         OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'delivering'
              AND d.lease_until <= ?))
     ORDER BY s.id`,
    now,
    at,
    now,
    now,
  );
  const claimed: ClaimedDelivery[] = [];
  for (const subscription of subscriptions) {
    const room = Math.min(
      options.perSubscription - Number(subscription.in_flight),
      options.limit - claimed.length,
    );
    if (room <= 0) continue;
    // Only the head of each record's waiting events: they reach the endpoint in feed order.
    const due = yield* rows<DeliveryRow>(selectExpiredClaims(dialect), subscription.id, now, room);
    if (due.length < room)
      due.push(
        ...(yield* rows<DeliveryRow>(selectDuePending(dialect), subscription.id, now, room - due.length)),
      );
    if (due.length === 0) continue;
    const claim = randomUUID();
    yield* run(
      `UPDATE webhook_deliveries SET status = 'delivering', claim = ?, lease_until = ? WHERE ${dialect.inList('id')}`,
      claim,
      now + options.leaseMs,
      dialect.list(due.map((delivery) => delivery.id)),
    );
    const sending = sentWith(subscription, claim, at);
    for (const delivery of due)
      claimed.push({
        ...toDelivery(delivery),
        ...sending,
        status: 'delivering',
        failedAttempts: Number(delivery.failed_attempts),
      });
    if (claimed.length >= options.limit) break;
  }
  return claimed;
}

interface SubscriptionState {
  enabled: boolean;
  failingSince: number | null;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
  /** Answered again after failing: its waiting retries go now. */
  recovered: boolean;
  disabledNow: boolean;
  changed: boolean;
}

const ATTEMPT_RECORD = [
  ['delivery_id', 'text'],
  ['attempt', 'bigint'],
  ['started_at', 'bigint'],
  ['outcome', 'text'],
  ['status_code', 'bigint'],
  ['latency_ms', 'bigint'],
  ['error', 'text'],
] as const;

const SETTLED_RECORD = [
  ['id', 'text'],
  ['status', 'text'],
  ['attempts', 'bigint'],
  ['failed', 'bigint'],
  ['next_attempt_at', 'bigint'],
  ['started_at', 'bigint'],
  ['status_code', 'bigint'],
  ['error', 'text'],
  ['latency_ms', 'bigint'],
  ['delivered_at', 'bigint'],
] as const;

/**
 * Settles a batch of attempts with a fixed number of statements, however many: under load thousands
 * settle a second, and four statements each were most of the worker's time. The subscriptions'
 * state is worked out in memory, result by result in the order given, and written once each.
 */
export function* recordAttempts(dialect: SqlDialect, results: readonly AttemptResult[]): RecordWork<void> {
  if (results.length === 0) return;
  const at = yield* transactionTime();
  const held = new Map<string, { subscriptionId: string; attempts: number }>();
  for (const found of yield* rows<{ id: string; claim: string; subscription_id: string; attempts: number }>(
    `SELECT id, claim, subscription_id, attempts FROM webhook_deliveries WHERE ${dialect.inList('id')} AND status = 'delivering'`,
    dialect.list(results.map((result) => result.deliveryId)),
  ))
    held.set(`${found.id} ${found.claim}`, {
      subscriptionId: found.subscription_id,
      attempts: Number(found.attempts),
    });
  // A result whose claim no longer holds its delivery (the lease ran out, another took it) is late.
  const current = results.flatMap((result) => {
    const delivery = held.get(`${result.deliveryId} ${result.claim}`);
    held.delete(`${result.deliveryId} ${result.claim}`);
    return delivery === undefined ? [] : [{ result, ...delivery, attempt: delivery.attempts + 1 }];
  });
  if (current.length === 0) return;

  const states = new Map<string, SubscriptionState>();
  for (const found of yield* rows<{
    id: string;
    enabled: number | boolean;
    failing_since: number | null;
    last_success_at: number | null;
    last_failure_at: number | null;
    last_error: string | null;
  }>(
    `SELECT id, enabled, failing_since, last_success_at, last_failure_at, last_error FROM webhook_subscriptions WHERE ${dialect.inList('id')}`,
    dialect.list([...new Set(current.map((settled) => settled.subscriptionId))]),
  ))
    states.set(found.id, {
      enabled: Boolean(found.enabled),
      failingSince: found.failing_since === null ? null : Number(found.failing_since),
      lastSuccessAt: found.last_success_at === null ? null : Number(found.last_success_at),
      lastFailureAt: found.last_failure_at === null ? null : Number(found.last_failure_at),
      lastError: found.last_error,
      recovered: false,
      disabledNow: false,
      changed: false,
    });

  const attempts: Record<string, string | number | null>[] = [];
  const settled: Record<string, string | number | null>[] = [];
  const audits: NewAuditEvent[] = [];
  for (const { result, subscriptionId, attempt } of current) {
    const retrying = result.outcome === 'retry' && result.nextAttemptAt !== null;
    const delivered = result.outcome === 'delivered';
    const latencyMs = Math.round(result.latencyMs);
    attempts.push({
      delivery_id: result.deliveryId,
      attempt,
      started_at: result.startedAt.getTime(),
      outcome: result.outcome,
      status_code: result.statusCode,
      latency_ms: latencyMs,
      error: result.error,
    });
    settled.push({
      id: result.deliveryId,
      status: delivered ? 'succeeded' : retrying ? 'pending' : 'failed',
      attempts: attempt,
      failed: delivered ? 0 : 1,
      next_attempt_at: retrying ? (result.nextAttemptAt as Date).getTime() : null,
      started_at: result.startedAt.getTime(),
      status_code: result.statusCode,
      error: result.error,
      latency_ms: latencyMs,
      delivered_at: delivered ? at : null,
    });
    const state = states.get(subscriptionId);
    if (state === undefined) continue;
    state.changed = true;
    if (delivered) {
      if (
        state.lastFailureAt !== null &&
        (state.lastSuccessAt === null || state.lastFailureAt >= state.lastSuccessAt)
      )
        state.recovered = true;
      if (state.failingSince !== null)
        audits.push(subscriptionRecoveredEvent(subscriptionId, result.deliveryId));
      state.lastSuccessAt = at;
      state.failingSince = null;
      continue;
    }
    state.lastFailureAt = at;
    state.lastError = result.error;
    if (result.outcome === 'gone') {
      if (state.enabled) {
        state.enabled = false;
        state.disabledNow = true;
        audits.push(subscriptionGoneEvent(subscriptionId, result.deliveryId));
      }
    } else if (!retrying && state.failingSince === null) {
      state.failingSince = at;
      audits.push(subscriptionFailingEvent(subscriptionId, result.deliveryId, result.error));
    }
  }

  for (const [id, state] of states) {
    // The endpoint answers again after failing: what waits for a retry goes now rather than hours
    // from now (before this batch's own retries are written: they wait their turn). Only then: on a
    // healthy endpoint this would read its whole queue on every success.
    if (state.recovered)
      yield* run(
        `UPDATE webhook_deliveries SET next_attempt_at = ? WHERE subscription_id = ? AND status = 'pending'
         AND next_attempt_at > ? AND failed_attempts > 0`,
        scheduleNow(),
        id,
        scheduleNow(),
      );
  }
  for (let start = 0; start < current.length; start += 1000) {
    yield* run(
      `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, outcome, status_code, latency_ms, error)
       SELECT r.delivery_id, r.attempt, r.started_at, r.outcome, r.status_code, r.latency_ms, r.error
       FROM ${dialect.jsonRecords(ATTEMPT_RECORD)} WHERE TRUE`,
      JSON.stringify(attempts.slice(start, start + 1000)),
    );
    yield* run(
      `UPDATE webhook_deliveries SET status = r.status, attempts = r.attempts, failed_attempts = failed_attempts + r.failed,
         next_attempt_at = r.next_attempt_at, claim = NULL, lease_until = NULL, last_attempt_at = r.started_at,
         last_status_code = r.status_code, last_error = r.error, last_latency_ms = r.latency_ms, delivered_at = r.delivered_at
       FROM ${dialect.jsonRecords(SETTLED_RECORD)} WHERE webhook_deliveries.id = r.id`,
      JSON.stringify(settled.slice(start, start + 1000)),
    );
  }
  for (const [id, state] of states) {
    if (!state.changed) continue;
    yield* run(
      `UPDATE webhook_subscriptions SET last_success_at = ?, last_failure_at = ?, last_error = ?, failing_since = ?
       WHERE id = ?`,
      state.lastSuccessAt,
      state.lastFailureAt,
      state.lastError,
      state.failingSince,
      id,
    );
    if (state.disabledNow)
      yield* run(
        `UPDATE webhook_subscriptions SET enabled = ?, disabled_reason = 'gone', updated_at = ?, version = version + 1
         WHERE id = ?`,
        0,
        at,
        id,
      );
  }
  for (const event of audits) yield* appendAuditEvent(event);
}

export function* redeliver(
  subscriptionId: string,
  selection: RedeliverySelection,
  audit?: AuditContext,
): RecordWork<number> {
  if ((yield* row('SELECT id FROM webhook_subscriptions WHERE id = ?', subscriptionId)) === undefined)
    throw new NotFoundError('Webhook subscription', subscriptionId);
  const now = scheduleNow();
  const requeue = `UPDATE webhook_deliveries SET status = 'pending', failed_attempts = 0, next_attempt_at = ?,
      claim = NULL, lease_until = NULL
    WHERE subscription_id = ? AND status IN ('succeeded', 'failed', 'cancelled')`;
  let queued: number;
  if ('deliveryId' in selection) {
    const found = yield* row(
      'SELECT id FROM webhook_deliveries WHERE subscription_id = ? AND id = ?',
      subscriptionId,
      selection.deliveryId,
    );
    if (found === undefined) throw new NotFoundError('Webhook delivery', selection.deliveryId);
    queued = yield* run(`${requeue} AND id = ?`, now, subscriptionId, selection.deliveryId);
  } else {
    queued = yield* run(
      `${requeue} AND occurred_at >= ? AND occurred_at < ?`,
      now,
      subscriptionId,
      Date.parse(selection.from),
      Date.parse(selection.to),
    );
  }
  if (audit !== undefined) yield* appendAuditEvent(redeliveryEvent(audit, subscriptionId, selection, queued));
  return queued;
}

/**
 * The finished deliveries queued before a cutoff, oldest first, at most a limit. The status term is
 * the finished-deliveries index's own, word for word, so that SQLite may read through it.
 */
export const SELECT_PRUNABLE_DELIVERIES = `SELECT seq FROM webhook_deliveries
  WHERE status IN ('succeeded', 'failed', 'cancelled') AND created_at < ?
  ORDER BY created_at LIMIT ?`;

/** The delivery log's retention: finished deliveries queued before `before`, and their attempts. */
export function* pruneDeliveries(dialect: SqlDialect, before: number, limit: number): RecordWork<number> {
  const pruned = yield* rows<{ id: string }>(
    `DELETE FROM webhook_deliveries WHERE seq IN (${SELECT_PRUNABLE_DELIVERIES}) RETURNING id`,
    before,
    limit,
  );
  if (pruned.length > 0)
    yield* run(
      `DELETE FROM webhook_attempts WHERE ${dialect.inList('delivery_id')}`,
      dialect.list(pruned.map((delivery) => delivery.id)),
    );
  return pruned.length;
}
