import type { KeyObject } from 'node:crypto';
import type {
  Actor,
  AuditContext,
  CatalogStore,
  StoredWebhookSubscription,
  WebhookEventType,
} from '@catalog/store';
import { generateWebhookSecret } from '../../webhooks/delivery/sign-webhook.ts';
import { sealWebhookSecret } from '../../webhooks/delivery/webhook-secret-sealing.ts';
import { checkClientAllowsEvents } from './check-client-allows-events.ts';
import { checkSubscriptionUrl } from './check-subscription-url.ts';
import { generateSubscriptionId } from './generate-subscription-id.ts';

/**
 * POST /admin/webhook-subscriptions: a subscription of an active client's endpoint to event types its
 * scopes allow, and its signing secret, stored sealed and returned this once.
 */
export async function createWebhookSubscription(input: {
  readonly store: CatalogStore;
  readonly sealingKey: KeyObject;
  readonly allowPrivateNetworks: boolean;
  readonly actor: Actor;
  readonly audit: AuditContext;
  readonly now: Date;
  readonly request: {
    readonly clientId: string;
    readonly url: string;
    readonly description?: string | undefined;
    readonly eventTypes: readonly WebhookEventType[];
    readonly enabled: boolean;
  };
}): Promise<{ subscription: StoredWebhookSubscription; secret: string }> {
  const { request } = input;
  await checkClientAllowsEvents({
    store: input.store,
    clientId: request.clientId,
    eventTypes: request.eventTypes,
    now: input.now,
  });
  await checkSubscriptionUrl({ url: request.url, allowPrivateNetworks: input.allowPrivateNetworks });
  const id = generateSubscriptionId();
  const secret = generateWebhookSecret();
  const subscription = await input.store.webhooks.createSubscription(
    {
      id,
      clientId: request.clientId,
      url: request.url,
      description: request.description ?? null,
      eventTypes: [...new Set(request.eventTypes)],
      enabled: request.enabled,
      secretSealed: sealWebhookSecret(secret, input.sealingKey, id),
      createdBy: input.actor,
    },
    input.audit,
  );
  return { subscription, secret };
}
