import type { AuditContext } from '../model/audit-event.ts';
import type {
  AttemptResult,
  ClaimedDelivery,
  ClaimOptions,
  DeliveryRound,
  DeliveryRoundResult,
  EnqueueResult,
  NewWebhookSubscription,
  RedeliverySelection,
  StoredWebhookSubscription,
  WebhookAttempt,
  WebhookDeliveryFilter,
  WebhookDeliveryPage,
  WebhookQueueDepth,
  WebhookSecretRotation,
  WebhookSubscriptionPatch,
} from '../model/webhook.ts';
import type { WebhookStore } from '../ports/webhook-store.ts';
import type { ExpectedVersion } from './expected-version.ts';
import type { RecordEngine } from './record-engine.ts';
import { row, rows } from './record-work.ts';
import {
  claimDue,
  cursorAndHead,
  enqueueAndClaim,
  enqueueChanges,
  pruneDeliveries,
  recordAttempts,
  redeliver,
  roundProbe,
  SELECT_QUEUED_COUNT,
  someSubscriptionShort,
} from './webhook-outbox-records.ts';
import {
  DELIVERY_COLUMNS,
  type DeliveryRow,
  SELECT_SUBSCRIPTION,
  type SubscriptionRow,
  toDelivery,
  toSubscription,
} from './webhook-row.ts';
import {
  createSubscription,
  deleteSubscription,
  rotateSecret,
  subscriptionRow,
  updateSubscription,
} from './webhook-subscription-records.ts';

/** Webhook subscriptions and their outbox on either record engine. */
export class RecordWebhookStore implements WebhookStore {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  createSubscription(
    input: NewWebhookSubscription,
    audit?: AuditContext,
  ): Promise<StoredWebhookSubscription> {
    return this.#engine.write(() => createSubscription(input, audit));
  }

  async getSubscription(id: string): Promise<StoredWebhookSubscription | undefined> {
    const found = await this.#engine.direct(() => subscriptionRow(id));
    return found === undefined ? undefined : toSubscription(found);
  }

  async listSubscriptions(filter: { clientId?: string } = {}): Promise<StoredWebhookSubscription[]> {
    const clientId = filter.clientId ?? null;
    const found = await this.#engine.direct(() =>
      rows<SubscriptionRow>(
        `${SELECT_SUBSCRIPTION} WHERE CAST(? AS text) IS NULL OR s.client_id = ? ORDER BY s.created_at, s.id${this.#engine.dialect.byteOrder}`,
        clientId,
        clientId,
      ),
    );
    return found.map((subscription) => toSubscription(subscription));
  }

  updateSubscription(
    id: string,
    patch: WebhookSubscriptionPatch,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<StoredWebhookSubscription> {
    return this.#engine.write(() => updateSubscription(id, patch, audit, expected));
  }

  deleteSubscription(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<void> {
    return this.#engine.write(() => deleteSubscription(id, audit, expected));
  }

  rotateSecret(
    id: string,
    rotation: WebhookSecretRotation,
    audit?: AuditContext,
  ): Promise<StoredWebhookSubscription> {
    return this.#engine.write(() => rotateSecret(id, rotation, audit));
  }

  async listDeliveries(subscriptionId: string, filter: WebhookDeliveryFilter): Promise<WebhookDeliveryPage> {
    const status = filter.status ?? null;
    const before = filter.before === undefined ? null : Number(filter.before);
    const found = await this.#engine.direct(() =>
      rows<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
         WHERE d.subscription_id = ? AND (CAST(? AS text) IS NULL OR d.status = ?) AND (CAST(? AS bigint) IS NULL OR d.seq < ?)
         ORDER BY d.seq DESC LIMIT ?`,
        subscriptionId,
        status,
        status,
        before,
        before,
        filter.limit + 1,
      ),
    );
    const page = found.slice(0, filter.limit);
    return {
      deliveries: page.map(toDelivery),
      nextBefore: found.length > filter.limit ? String(page.at(-1)?.seq) : null,
    };
  }

  async listAttempts(deliveryId: string): Promise<WebhookAttempt[]> {
    const found = await this.#engine.direct(() =>
      rows<{
        delivery_id: string;
        attempt: number;
        started_at: number;
        outcome: WebhookAttempt['outcome'];
        status_code: number | null;
        latency_ms: number;
        error: string | null;
      }>(
        'SELECT delivery_id, attempt, started_at, outcome, status_code, latency_ms, error FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt',
        deliveryId,
      ),
    );
    return found.map((attempt) => ({
      deliveryId: attempt.delivery_id,
      attempt: Number(attempt.attempt),
      startedAt: new Date(Number(attempt.started_at)).toISOString(),
      outcome: attempt.outcome,
      statusCode: attempt.status_code === null ? null : Number(attempt.status_code),
      latencyMs: Number(attempt.latency_ms),
      error: attempt.error,
    }));
  }

  redeliver(subscriptionId: string, selection: RedeliverySelection, audit?: AuditContext): Promise<number> {
    return this.#engine.write(() => redeliver(subscriptionId, selection, audit));
  }

  async deliveryRound(round: DeliveryRound): Promise<DeliveryRoundResult> {
    const now = Date.now();
    const probe = await this.#engine.direct(() => roundProbe(now));
    const ahead = round.enqueueAhead ?? null;
    // Queued no faster than they are sent: every delivery row is written and rewritten under the one
    // write lock (SQLite) that the catalogue's writes wait for, and rows queued ahead of the sending
    // only make that wait come sooner.
    const enqueue =
      probe.through < probe.head &&
      (ahead === null || (await this.#engine.direct(() => someSubscriptionShort(now, ahead))));
    const claim = round.claim !== null && probe.due;
    if (round.settled.length === 0 && !enqueue && !claim)
      return { enqueued: { through: probe.through, head: probe.head, queued: 0 }, claimed: [] };
    const { dialect } = this.#engine;
    return this.#engine.write(function* () {
      yield* recordAttempts(dialect, round.settled);
      // What was due before (the probe saw it, or a settled attempt freed its record's next event)
      // is claimed first; new deliveries are due only now, after it, and the claim's room left
      // takes them as they are queued.
      const claimed =
        round.claim !== null && (claim || round.settled.length > 0)
          ? yield* claimDue(dialect, round.claim)
          : [];
      if (!enqueue) return { enqueued: { through: probe.through, head: probe.head, queued: 0 }, claimed };
      const queued = yield* enqueueAndClaim(
        dialect,
        round.enqueueLimit,
        round.claim === null ? null : { options: round.claim, claimed: claimed.length },
      );
      return { enqueued: queued.enqueued, claimed: [...claimed, ...queued.claimed] };
    });
  }

  pruneDeliveries(before: Date, limit: number): Promise<number> {
    const { dialect } = this.#engine;
    return this.#engine.write(() => pruneDeliveries(dialect, before.getTime(), limit));
  }

  async enqueueChanges(limit: number): Promise<EnqueueResult> {
    // Most polls find nothing new: they read, and take no write lock (SQLite has one writer).
    const probe = await this.#engine.direct(() => cursorAndHead());
    if (probe.through >= probe.head) return { ...probe, queued: 0 };
    return this.#engine.write(() => enqueueChanges(this.#engine.dialect, limit));
  }

  async claimDue(options: ClaimOptions): Promise<ClaimedDelivery[]> {
    // Read first, and take the write lock only when something is due by the wall clock, which the
    // due times are written in and the claim compares with.
    const probe = await this.#engine.direct(() => roundProbe(Date.now()));
    if (!probe.due) return [];
    return this.#engine.write(() => claimDue(this.#engine.dialect, options));
  }

  recordAttempts(results: readonly AttemptResult[]): Promise<void> {
    return this.#engine.write(() => recordAttempts(this.#engine.dialect, results));
  }

  async queueDepth(): Promise<WebhookQueueDepth> {
    const found = await this.#engine.direct(() =>
      row<{ pending: number; through: number; head: number | null }>(
        `SELECT ${SELECT_QUEUED_COUNT} AS pending,
           (SELECT through FROM webhook_outbox_cursor WHERE id = 1) AS through,
           (SELECT max(sequence) FROM change_feed) AS head`,
      ),
    );
    return {
      pending: Number(found?.pending ?? 0),
      feedBacklog: Math.max(0, Number(found?.head ?? 0) - Number(found?.through ?? 0)),
    };
  }
}
