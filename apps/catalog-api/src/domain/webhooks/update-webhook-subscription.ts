import { ServiceError } from '@catalog/contracts';
import type {
  AuditContext,
  CatalogStore,
  ExpectedVersion,
  StoredWebhookSubscription,
  WebhookSubscriptionPatch,
} from '@catalog/store';
import { checkClientAllowsEvents } from './check-client-allows-events.ts';
import { checkSubscriptionUrl } from './check-subscription-url.ts';

/**
 * PATCH /admin/webhook-subscriptions/{id}: a merge patch, with the create's rules on the fields it
 * changes (the endpoint policy on `url`, the client's scopes on `eventTypes`). A subscription of a
 * revoked client may still be edited or disabled: nothing is delivered for it anyway.
 */
export async function updateWebhookSubscription(input: {
  readonly store: CatalogStore;
  readonly subscriptionId: string;
  readonly patch: WebhookSubscriptionPatch;
  readonly allowPrivateNetworks: boolean;
  readonly audit: AuditContext;
  readonly now: Date;
  /** The versions the caller's If-Match names; undefined writes whatever is stored. */
  readonly expected?: ExpectedVersion;
}): Promise<StoredWebhookSubscription> {
  const { store, patch } = input;
  const current = await store.webhooks.getSubscription(input.subscriptionId);
  if (current === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Webhook subscription not found');
  if (patch.eventTypes !== undefined) {
    await checkClientAllowsEvents({
      store,
      clientId: current.clientId,
      eventTypes: patch.eventTypes,
      now: input.now,
      mayBeInactive: true,
    });
  }
  if (patch.url !== undefined && patch.url !== current.url) {
    await checkSubscriptionUrl({ url: patch.url, allowPrivateNetworks: input.allowPrivateNetworks });
  }
  const unique = patch.eventTypes === undefined ? {} : { eventTypes: [...new Set(patch.eventTypes)] };
  return store.webhooks.updateSubscription(
    input.subscriptionId,
    { ...patch, ...unique },
    input.audit,
    input.expected,
  );
}

/** The merge patch body (RFC 7396) as the store's patch: `null` empties the description, the only nullable field. */
export function webhookPatchOf(body: {
  readonly url?: string | undefined;
  readonly description?: string | null | undefined;
  readonly eventTypes?: WebhookSubscriptionPatch['eventTypes'] | undefined;
  readonly enabled?: boolean | undefined;
}): WebhookSubscriptionPatch {
  const { url, description, eventTypes, enabled } = body;
  return {
    ...(url === undefined ? {} : { url }),
    ...(description === undefined ? {} : { description }),
    ...(eventTypes === undefined ? {} : { eventTypes }),
    ...(enabled === undefined ? {} : { enabled }),
  };
}
