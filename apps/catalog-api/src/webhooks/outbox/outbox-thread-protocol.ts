import type { DeliveryRound, DeliveryRoundResult, StorageLocation, WebhookQueueDepth } from '@catalog/store';

/** What the outbox thread is started with: where the records are, to open them on a connection of its own. */
export interface OutboxThreadSetup {
  location: StorageLocation;
}

export type OutboxThreadRequest =
  | { id: number; method: 'deliveryRound'; round: DeliveryRound }
  | { id: number; method: 'pruneDeliveries'; before: Date; limit: number }
  | { id: number; method: 'queueDepth' };

export type OutboxThreadReply =
  | { id: number; ok: true; result: DeliveryRoundResult | number | WebhookQueueDepth }
  | { id: number; ok: false; message: string };
