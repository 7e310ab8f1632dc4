import type { WebhookStore } from '@catalog/store';

/** What the delivery worker needs of the outbox: its rounds, the log's retention, the queue's depth for metrics. */
export type DeliveryOutbox = Pick<WebhookStore, 'deliveryRound' | 'pruneDeliveries' | 'queueDepth'>;

/** An outbox the worker may close when it stops (the thread's connection; nothing in-process). */
export interface OpenDeliveryOutbox extends DeliveryOutbox {
  close(): Promise<void>;
}
