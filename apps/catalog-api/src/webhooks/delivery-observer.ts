import type { WebhookQueueDepth } from '@catalog/store';

/** How an attempt ended, as operators count it: `failed` is an event given up on (or refused by policy). */
export type AttemptCount = 'delivered' | 'retry' | 'gone' | 'failed';

/** What the delivery worker tells whoever watches it (the API's metrics); it knows nothing of Prometheus. */
export interface WebhookDeliveryObserver {
  attemptSettled(outcome: AttemptCount, seconds: number): void;
  /** An event delivered, `seconds` after its change was committed. */
  eventDelivered(seconds: number): void;
  /** Reads the outbox's depth when scraped. */
  watchQueue(read: () => Promise<WebhookQueueDepth>): void;
}
