import type { DeliveryRound, DeliveryRoundResult, StorageLocation, WebhookQueueDepth } from '@catalog/store';

/** Where the embedded records are, for the outbox thread to open their outbox on a connection of its own. */
export type EmbeddedLocation = Extract<StorageLocation, { engine: 'sqlite' }>;

export interface OutboxThreadSetup {
  location: EmbeddedLocation;
  /** The share of the file's write lock the rounds may take while the catalogue is written. */
  writeShare: number;
}

export type OutboxThreadRequest =
  | { id: number; method: 'deliveryRound'; round: DeliveryRound }
  | { id: number; method: 'pruneDeliveries'; before: Date; limit: number }
  | { id: number; method: 'queueDepth' };

export type OutboxThreadReply =
  | { id: number; ok: true; result: DeliveryRoundResult | number | WebhookQueueDepth }
  | { id: number; ok: false; message: string };
