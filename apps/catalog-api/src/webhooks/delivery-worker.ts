import type { AttemptOutcome, AttemptResult, ClaimedDelivery, WebhookStore } from '@catalog/store';
import type { Logger } from 'pino';
import type { DeliveryOutcome, WebhookSender } from './delivery/send-webhook.ts';
import type { AttemptCount, WebhookDeliveryObserver } from './delivery-observer.ts';
import { eventBody } from './event-body.ts';

export interface DeliveryWorkerDeps {
  store: WebhookStore;
  send: WebhookSender['send'];
  /** Milliseconds until the next attempt after `failedAttempts` failures, or null to give up. */
  retryDelay(failedAttempts: number, retryAfterMs: number | null): number | null;
  /** Opens a sealed signing secret of a subscription; throws when it cannot. */
  unseal(sealed: string, subscriptionId: string): string;
  observer: WebhookDeliveryObserver;
  logger: Logger;
  /** Deliveries in flight to one subscription's endpoint, over every instance. */
  concurrencyPerEndpoint: number;
  /** How often an idle worker looks for new changes and due retries. */
  pollMs: number;
  /** How long a claim holds: past it, another instance takes over the delivery (this one died). */
  leaseMs: number;
  now?: () => Date;
}

/** Deliveries in flight in this process at most, over every endpoint. */
const MAX_IN_FLIGHT = 256;
/** Change-feed entries turned into deliveries per transaction. */
const ENQUEUE_BATCH = 1000;
/** Attempts recorded per transaction at most. */
const RECORD_BATCH = 500;

interface SettledAttempt {
  delivery: ClaimedDelivery;
  result: AttemptResult;
  retryIn: number | null;
  recorded: () => void;
}

/**
 * Drives the outbox: turns new change-feed entries into deliveries, claims what is due and sends it,
 * records each attempt. Every instance of the API runs one; the store's claims keep them from sending
 * the same attempt twice, and a write never waits for it (it only reads the feed the write appended).
 */
export class WebhookDeliveryWorker {
  readonly #deps: DeliveryWorkerDeps;
  readonly #now: () => Date;
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #settled: SettledAttempt[] = [];
  #recording: Promise<void> | undefined;

  constructor(deps: DeliveryWorkerDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#deps.observer.watchQueue(() => this.#deps.store.queueDepth());
    this.#loop = this.#run();
  }

  /** Stops claiming, and waits for the attempts under way to be recorded. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wakeUp();
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let busy = false;
      try {
        busy = await this.#tick();
      } catch (error) {
        this.#deps.logger.warn({ err: error }, 'webhook delivery: the outbox could not be read; retrying');
      }
      if (!busy && this.#running) await this.#idle();
    }
  }

  /** One round: new changes queued, due deliveries claimed and started. True when it did anything. */
  async #tick(): Promise<boolean> {
    const { store } = this.#deps;
    const enqueued = await store.enqueueChanges(ENQUEUE_BATCH);
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    const claimed =
      room <= 0
        ? []
        : await store.claimDue({
            limit: room,
            perSubscription: this.#deps.concurrencyPerEndpoint,
            leaseMs: this.#deps.leaseMs,
          });
    for (const delivery of claimed) {
      const attempt = this.#attempt(delivery).finally(() => {
        this.#inFlight.delete(attempt);
        // A settled delivery may free the next event of the same record: look again at once.
        this.#wakeUp();
      });
      this.#inFlight.add(attempt);
    }
    return enqueued.through < enqueued.head || claimed.length > 0;
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#timer = setTimeout(resolve, this.#deps.pollMs);
    });
  }

  #wakeUp(): void {
    clearTimeout(this.#timer);
    this.#wake?.();
    this.#wake = undefined;
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
    await new Promise<void>((recorded) => {
      this.#settled.push({ delivery, result, retryIn, recorded });
      this.#recordSoon();
    });
  }

  // Attempts settle by the thousand a second under load: they are recorded together, one transaction
  // for all that settled while the previous one was written, not one each.
  #recordSoon(): void {
    if (this.#recording !== undefined) return;
    this.#recording = this.#recordSettled().finally(() => {
      this.#recording = undefined;
      if (this.#settled.length > 0) this.#recordSoon();
    });
  }

  async #recordSettled(): Promise<void> {
    const batch = this.#settled.splice(0, RECORD_BATCH);
    try {
      await this.#deps.store.recordAttempts(batch.map((settled) => settled.result));
      for (const settled of batch) this.#observe(settled);
    } catch (error) {
      // Their claims' leases end and the deliveries are attempted again: at least once, never lost.
      this.#deps.logger.warn(
        { err: error, attempts: batch.length },
        'webhook delivery: attempts not recorded',
      );
    } finally {
      for (const settled of batch) settled.recorded();
    }
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
