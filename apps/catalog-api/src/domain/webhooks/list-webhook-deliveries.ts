import { ServiceError } from '@catalog/contracts';
import type { CatalogStore, WebhookDeliveryFilter, WebhookDeliveryPage } from '@catalog/store';

/** GET /admin/webhook-subscriptions/{id}/deliveries: a page of the log, newest first; 404 for an unknown subscription. */
export async function listWebhookDeliveries(input: {
  readonly store: CatalogStore;
  readonly subscriptionId: string;
  readonly filter: WebhookDeliveryFilter;
}): Promise<WebhookDeliveryPage> {
  if ((await input.store.webhooks.getSubscription(input.subscriptionId)) === undefined)
    throw new ServiceError(404, 'NOT_FOUND', 'Webhook subscription not found');
  return input.store.webhooks.listDeliveries(input.subscriptionId, input.filter);
}
