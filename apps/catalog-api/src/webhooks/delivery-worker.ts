import { setTimeout as sleep } from 'node:timers/promises';
import type { AttemptOutcome, AttemptResult, ClaimedDelivery, DeliveryRoundResult } from '@catalog/store';
import type { Logger } from 'pino';
import type { DeliveryOutcome, WebhookSender } from './delivery/send-webhook.ts';
import type { AttemptCount, WebhookDeliveryObserver } from './delivery-observer.ts';
import { eventBody } from './event-body.ts';
import type { DeliveryOutbox } from './outbox/delivery-outbox.ts';

export interface DeliveryWorkerDeps {
  outbox: DeliveryOutbox;
  send: WebhookSender['send'];
  /** Milliseconds until the next attempt after `failedAttempts` failures, or null to give up. */
  retryDelay(failedAttempts: number, retryAfterMs: number | null): number | null;
  /** Opens a sealed signing secret of a subscription; throws when it cannot. */
  unseal(sealed: string, subscriptionId: string): string;
  observer: WebhookDeliveryObserver;
  logger: Logger;
  /** Attempts under way to one subscription's endpoint from this process at once. */
  concurrencyPerEndpoint: number;
  /** How often an idle worker looks for new changes and due retries. */
  pollMs: number;
  /**
   * How long a claim holds: past it, another instance takes over the delivery (this one died). It
   * must cover CLAIM_WINDOW attempts one after the other (a claimed delivery may wait for a slot).
   */
  leaseMs: number;
  /** How long finished deliveries stay in the delivery log (WEBHOOK_LOG_RETENTION_DAYS). */
  logRetentionMs: number;
  now?: () => Date;
}

/** Deliveries claimed and not yet settled in this process at most, over every endpoint. */
export const MAX_HELD = 512;
/**
 * A subscription's claims outstanding, over every instance, as a multiple of the attempts sent to it
 * at once. With one (claims = attempts) a round found the slots of every attempt answered during the
 * round before still taken, since those are recorded only by the next one: rounds claimed in turn
 * everything and nothing, and the endpoint waited half the time. The second window's claims wait
 * here for a slot (so a lease covers two attempts) and go as soon as one frees, between rounds.
 */
export const CLAIM_WINDOW = 2;
/** Change-feed entries turned into deliveries per transaction. */
const ENQUEUE_BATCH = 1000;
/**
 * New changes are queued while some subscription has fewer than this many rounds' claims waiting,
 * not as fast as the feed grows: under a burst of writes the rows queued ahead of the sending took
 * the write lock the writes wait for, only to be claimed minutes later.
 */
const ENQUEUE_AHEAD_ROUNDS = 8;
/**
 * Changes are queued this often at least, however many deliveries wait: one record's events held
 * behind its retried first one count as waiting, and must not stall every other record's.
 */
const ENQUEUE_AT_LEAST_EVERY_MS = 5000;
/** A busy worker's rounds start this far apart at least. */
const BUSY_ROUND_INTERVAL_MS = 20;
/** Attempts recorded per round at most. */
const RECORD_BATCH = 500;
/** How often the delivery log is cut to its retention (and once at start). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** Deliveries deleted per transaction while pruning: rounds run between them. */
const PRUNE_BATCH = 1000;

interface SettledAttempt {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  retryIn: number | null;
}

/**
 * Drives the outbox: turns new change-feed entries into deliveries, claims what is due and sends it,
 * records each attempt. Every instance of the API runs one; the store's claims keep them from sending
 * the same attempt twice, and a write never waits for it (it only reads the feed the write appended).
 */
export class WebhookDeliveryWorker {
  readonly #deps: DeliveryWorkerDeps;
  readonly #now: () => Date;
  /** The attempts under way. */
  readonly #inFlight = new Set<Promise<void>>();
  /** Per subscription: attempts under way, and claimed deliveries waiting for one of its slots. */
  readonly #sending = new Map<string, number>();
  readonly #waiting = new Map<string, ClaimedDelivery[]>();
  #held = 0;
  /** When the outbox last queued changes, or found the feed all queued. */
  #queuedAt = 0;
  #running = false;
  #loop: Promise<void> | undefined;
  #pruning: Promise<void> | undefined;
  /** Ends the hourly prune's sleep; one per start, since an aborted signal stays aborted. */
  #stopping = new AbortController();
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** An attempt settled while a round ran (no idle wait to end): the loop must not then sleep. */
  #wokenDuringRound = false;
  /** Attempts answered and not yet recorded: the next round records them. */
  readonly #settled: SettledAttempt[] = [];

  constructor(deps: DeliveryWorkerDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#stopping = new AbortController();
    this.#deps.observer.watchQueue(() => this.#deps.outbox.queueDepth());
    this.#loop = this.#run();
    this.#pruning = this.#pruneHourly();
  }

  /** Stops claiming, and waits for the attempts under way to be recorded. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#stopping.abort();
    this.#wakeUp();
    await this.#loop;
    await this.#pruning;
    // Each attempt that ends starts the next one waiting for its subscription's slot.
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    while (this.#settled.length > 0)
      await this.#round(false).catch(() => {
        // Logged by the round; their leases end and another process attempts them again.
      });
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const startedAt = performance.now();
      let busy = false;
      try {
        busy = await this.#round(true);
      } catch (error) {
        this.#deps.logger.warn({ err: error }, 'webhook delivery: the outbox could not be read; retrying');
      }
      if (!busy) {
        if (this.#running) await this.#idle();
        continue;
      }
      // Busy: let the answers arrive for a moment, so that the next round records and claims them
      // by the dozen, not one each (a transaction per answer spent the process on commits).
      const rest = BUSY_ROUND_INTERVAL_MS - (performance.now() - startedAt);
      if (rest > 0) await sleep(rest);
    }
  }

  async #pruneHourly(): Promise<void> {
    while (this.#running) {
      await this.#prune();
      await sleep(PRUNE_EVERY_MS, undefined, { signal: this.#stopping.signal }).catch(() => undefined);
    }
  }

  /** Deletes the finished deliveries older than the retention, a batch a transaction. */
  async #prune(): Promise<void> {
    const before = new Date(this.#now().getTime() - this.#deps.logRetentionMs);
    let pruned = 0;
    try {
      for (;;) {
        const deleted = await this.#deps.outbox.pruneDeliveries(before, PRUNE_BATCH);
        pruned += deleted;
        if (deleted < PRUNE_BATCH || !this.#running) break;
      }
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'webhook delivery log: could not be pruned; trying again later');
    }
    if (pruned > 0)
      this.#deps.logger.info(
        { pruned, before: before.toISOString() },
        'webhook delivery log: finished deliveries past their retention deleted',
      );
  }

  /**
   * One round, one transaction: the attempts settled since the last round recorded, new changes
   * queued, due deliveries claimed (as many as this process has room for) and started. Under load
   * rounds run back to back and each carries what settled during the one before. True when it did
   * anything.
   */
  async #round(claiming: boolean): Promise<boolean> {
    this.#wokenDuringRound = false;
    const settled = this.#settled.splice(0, RECORD_BATCH);
    const room = MAX_HELD - this.#held;
    const perSubscription = CLAIM_WINDOW * this.#deps.concurrencyPerEndpoint;
    const startedAt = performance.now();
    let round: DeliveryRoundResult;
    try {
      round = await this.#deps.outbox.deliveryRound({
        settled: settled.map((attempt) => attempt.result),
        enqueueLimit: ENQUEUE_BATCH,
        enqueueAhead:
          startedAt - this.#queuedAt < ENQUEUE_AT_LEAST_EVERY_MS
            ? ENQUEUE_AHEAD_ROUNDS * perSubscription
            : null,
        claim:
          claiming && room > 0
            ? {
                limit: room,
                perSubscription,
                leaseMs: this.#deps.leaseMs,
              }
            : null,
      });
    } catch (error) {
      // Their claims' leases end and the deliveries are attempted again: at least once, never lost.
      if (settled.length > 0)
        this.#deps.logger.warn(
          { err: error, attempts: settled.length },
          'webhook delivery: attempts not recorded',
        );
      throw error;
    }
    const { enqueued } = round;
    if (enqueued.queued > 0 || enqueued.through >= enqueued.head) this.#queuedAt = startedAt;
    for (const attempt of settled) this.#observe(attempt);
    for (const delivery of round.claimed) this.#hold(delivery);
    return settled.length > 0 || round.claimed.length > 0 || enqueued.through < enqueued.head;
  }

  #hold(delivery: ClaimedDelivery): void {
    this.#held += 1;
    const { subscriptionId } = delivery;
    if ((this.#sending.get(subscriptionId) ?? 0) < this.#deps.concurrencyPerEndpoint) {
      this.#launch(delivery);
      return;
    }
    const queue = this.#waiting.get(subscriptionId);
    if (queue === undefined) this.#waiting.set(subscriptionId, [delivery]);
    else queue.push(delivery);
  }

  #launch(delivery: ClaimedDelivery): void {
    const { subscriptionId } = delivery;
    this.#sending.set(subscriptionId, (this.#sending.get(subscriptionId) ?? 0) + 1);
    const attempt = this.#attempt(delivery).finally(() => {
      this.#inFlight.delete(attempt);
      this.#held -= 1;
      const sending = (this.#sending.get(subscriptionId) ?? 1) - 1;
      if (sending === 0) this.#sending.delete(subscriptionId);
      else this.#sending.set(subscriptionId, sending);
      const next = this.#waiting.get(subscriptionId)?.shift();
      if (next !== undefined) this.#launch(next);
      if (this.#waiting.get(subscriptionId)?.length === 0) this.#waiting.delete(subscriptionId);
      // A settled attempt frees room, and may free the next event of the same record: a round at once.
      this.#wakeUp();
    });
    this.#inFlight.add(attempt);
  }

  #idle(): Promise<void> {
    if (this.#wokenDuringRound) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(this.#timer);
        this.#wake = undefined;
        resolve();
      };
      this.#wake = wake;
      this.#timer = setTimeout(wake, this.#deps.pollMs);
    });
  }

  #wakeUp(): void {
    if (this.#wake === undefined) this.#wokenDuringRound = true;
    else this.#wake();
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = this.#now();
    const outcome = await this.#send(delivery, startedAt);
    const failedAttempts = delivery.failedAttempts + 1;
    const retryIn =
      outcome.kind === 'retry' ? this.#deps.retryDelay(failedAttempts, outcome.retryAfterMs) : null;
    const result: AttemptResult = {
      deliveryId: delivery.id,
      claim: delivery.claim,
      outcome: outcome.kind,
      statusCode: outcome.statusCode,
      error: outcome.error,
      latencyMs: outcome.latencyMs,
      startedAt,
      nextAttemptAt: retryIn === null ? null : new Date(startedAt.getTime() + outcome.latencyMs + retryIn),
    };
    this.#settled.push({ delivery, result, retryIn });
  }

  #observe({ delivery, result, retryIn }: SettledAttempt): void {
    const { observer } = this.#deps;
    observer.attemptSettled(countOf(result.outcome, retryIn), result.latencyMs / 1000);
    if (result.outcome === 'delivered')
      observer.eventDelivered((this.#now().getTime() - Date.parse(delivery.occurredAt)) / 1000);
    else if (result.outcome !== 'retry' || retryIn === null)
      this.#deps.logger.warn(
        { deliveryId: delivery.id, subscriptionId: delivery.subscriptionId, error: result.error },
        result.outcome === 'gone'
          ? 'webhook endpoint answered 410 Gone: subscription disabled'
          : 'webhook event given up on: subscription failing',
      );
  }

  async #send(delivery: ClaimedDelivery, timestamp: Date): Promise<DeliveryOutcome> {
    let secrets: string[];
    try {
      secrets = delivery.secretsSealed.map((sealed) => this.#deps.unseal(sealed, delivery.subscriptionId));
    } catch {
      return {
        kind: 'refused',
        statusCode: null,
        error: 'the signing secret cannot be opened (was CLIENT_SECRET_PEPPER changed?): rotate the secret',
        retryAfterMs: null,
        latencyMs: 0,
      };
    }
    try {
      return await this.#deps.send({
        url: delivery.url,
        messageId: delivery.id,
        timestamp,
        body: eventBody(delivery),
        secrets,
      });
    } catch (error) {
      return {
        kind: 'retry',
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
        retryAfterMs: null,
        latencyMs: 0,
      };
    }
  }
}

function countOf(kind: AttemptOutcome, retryIn: number | null): AttemptCount {
  if (kind === 'delivered' || kind === 'gone') return kind;
  return kind === 'retry' && retryIn !== null ? 'retry' : 'failed';
}
