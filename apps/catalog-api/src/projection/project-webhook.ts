import type {
  WebhookDelivery as ContractWebhookDelivery,
  WebhookSubscription,
  WebhookSubscriptionCreated,
} from '@catalog/contracts';
import {
  type StoredWebhookSubscription,
  type WebhookDelivery,
  webhookSubscriptionState,
} from '@catalog/store';

/**
 * The contract's subscription, field by field: the sealed secrets and the record's version never
 * leave the API (the version travels as the ETag only).
 */
export function projectWebhookSubscription(subscription: StoredWebhookSubscription): WebhookSubscription {
  return {
    id: subscription.id,
    clientId: subscription.clientId,
    url: subscription.url,
    description: subscription.description,
    eventTypes: [...subscription.eventTypes],
    enabled: subscription.enabled,
    state: webhookSubscriptionState(subscription),
    disabledReason: subscription.disabledReason,
    failingSince: subscription.failingSince,
    lastSuccessAt: subscription.lastSuccessAt,
    lastFailureAt: subscription.lastFailureAt,
    lastError: subscription.lastError,
    previousSecretExpiresAt: subscription.previousSecretExpiresAt,
    createdAt: subscription.createdAt,
    createdBy: { userId: subscription.createdBy.userId, userName: subscription.createdBy.userName },
    updatedAt: subscription.updatedAt,
  };
}

/** The subscription as created, with its signing secret: the only answer that ever carries it. */
export function projectCreatedWebhookSubscription(
  subscription: StoredWebhookSubscription,
  secret: string,
): WebhookSubscriptionCreated {
  return { ...projectWebhookSubscription(subscription), secret };
}

/** One entry of the delivery log; its subscription is the one asked for, its feed sequence internal. */
export function projectWebhookDelivery(delivery: WebhookDelivery): ContractWebhookDelivery {
  return {
    id: delivery.id,
    eventType: delivery.eventType,
    entityId: delivery.entityId,
    occurredAt: delivery.occurredAt,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    lastAttemptAt: delivery.lastAttemptAt,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    lastLatencyMs: delivery.lastLatencyMs,
    deliveredAt: delivery.deliveredAt,
    createdAt: delivery.createdAt,
  };
}
