import type { StorageLocation, WebhookStore } from '@catalog/store';
import type { OpenDeliveryOutbox } from './delivery-outbox.ts';
import { ThreadedOutbox } from './threaded-outbox.ts';

/**
 * The outbox the delivery worker drives. On the embedded database, in a thread of its own (see
 * ThreadedOutbox); on PostgreSQL, the API's own store, whose queries already wait off the event loop.
 */
export async function openDeliveryOutbox(
  location: StorageLocation,
  store: WebhookStore,
): Promise<OpenDeliveryOutbox> {
  if (location.engine === 'sqlite') return new ThreadedOutbox(location).open();
  return {
    deliveryRound: (round) => store.deliveryRound(round),
    pruneDeliveries: (before, limit) => store.pruneDeliveries(before, limit),
    queueDepth: () => store.queueDepth(),
    close: async () => undefined,
  };
}
