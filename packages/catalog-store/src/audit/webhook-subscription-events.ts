import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { StoredWebhookSubscription } from '../model/webhook.ts';
import { changedFields, contextOf } from './audit-fields.ts';

/** The worker's own actions (failing, disabled on 410, recovered) are the service's, not an administrator's. */
export const WEBHOOK_WORKER: AuditContext = {
  actor: { kind: 'service', name: 'webhook-delivery' },
  sourceIp: null,
  requestId: null,
};

type SubscriptionFacts = Pick<
  StoredWebhookSubscription,
  'id' | 'clientId' | 'url' | 'description' | 'eventTypes' | 'enabled'
>;

const UPDATABLE_FIELDS = ['url', 'description', 'eventTypes', 'enabled'] as const;

/**
 * An endpoint's URL as the trail keeps it: without its query and fragment, where some receivers put
 * a token of their own (a secret the trail must never hold).
 */
function endpointOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

const target = (id: string) => ({ type: 'webhook-subscription' as const, id });

export function subscriptionCreatedEvent(
  context: AuditContext,
  subscription: SubscriptionFacts,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'webhook-subscription.create',
    target: target(subscription.id),
    details: {
      clientId: subscription.clientId,
      url: endpointOf(subscription.url),
      eventTypes: subscription.eventTypes.join(' '),
      enabled: subscription.enabled,
    },
  };
}

export function subscriptionUpdatedEvent(
  context: AuditContext,
  before: SubscriptionFacts,
  after: SubscriptionFacts,
): NewAuditEvent {
  const facts = (subscription: SubscriptionFacts) => ({ ...subscription, url: endpointOf(subscription.url) });
  return {
    ...contextOf(context),
    action: 'webhook-subscription.update',
    target: target(after.id),
    changes: changedFields(facts(before), facts(after), UPDATABLE_FIELDS, true),
  };
}

export function subscriptionDeletedEvent(
  context: AuditContext,
  subscription: SubscriptionFacts,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'webhook-subscription.delete',
    target: target(subscription.id),
    details: { clientId: subscription.clientId, url: endpointOf(subscription.url) },
  };
}

export function secretRotatedEvent(
  context: AuditContext,
  subscriptionId: string,
  previousSecretExpiresAt: string | null,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'webhook-subscription.rotate-secret',
    target: target(subscriptionId),
    details: { previousSecretExpiresAt },
  };
}

export function redeliveryEvent(
  context: AuditContext,
  subscriptionId: string,
  selection: { deliveryId: string } | { from: string; to: string },
  queued: number,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'webhook-subscription.redeliver',
    target: target(subscriptionId),
    details: { ...selection, queued },
  };
}

/** A delivery given up on: the subscription is failing until one is delivered again. */
export function subscriptionFailingEvent(
  subscriptionId: string,
  deliveryId: string,
  error: string | null,
): NewAuditEvent {
  return {
    ...WEBHOOK_WORKER,
    action: 'webhook-subscription.failing',
    target: target(subscriptionId),
    details: { deliveryId, error },
  };
}

export function subscriptionGoneEvent(subscriptionId: string, deliveryId: string): NewAuditEvent {
  return {
    ...WEBHOOK_WORKER,
    action: 'webhook-subscription.disable',
    target: target(subscriptionId),
    details: { reason: 'gone', statusCode: 410, deliveryId },
  };
}

export function subscriptionRecoveredEvent(subscriptionId: string, deliveryId: string): NewAuditEvent {
  return {
    ...WEBHOOK_WORKER,
    action: 'webhook-subscription.recover',
    target: target(subscriptionId),
    details: { deliveryId },
  };
}
