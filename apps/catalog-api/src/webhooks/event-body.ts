import type { WebhookEvent } from '@catalog/contracts';
import type { WebhookDelivery } from '@catalog/store';

/**
 * The body of a delivery (the contract's WebhookEvent): the same bytes on every attempt, built from
 * the delivery alone. `updatedAt` is the write's, which the feed entry carries as its time.
 */
export function eventBody(delivery: Pick<WebhookDelivery, 'eventType' | 'entityId' | 'occurredAt'>): string {
  const event: WebhookEvent = {
    type: delivery.eventType,
    timestamp: delivery.occurredAt,
    data: { id: delivery.entityId, updatedAt: delivery.occurredAt },
  };
  return JSON.stringify(event);
}
