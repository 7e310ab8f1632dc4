// The webhook subscription routes the console calls (`/admin/webhook-subscriptions…`), typed by the contract.
import type { ApiClient, Tagged } from './client.ts';
import type {
  WebhookDeliveryPage,
  WebhookDeliveryStatus,
  WebhookRedelivery,
  WebhookRedeliveryRequest,
  WebhookSecretRotation,
  WebhookSecretRotationRequest,
  WebhookSubscription,
  WebhookSubscriptionCreated,
  WebhookSubscriptionCreateRequest,
  WebhookSubscriptionList,
  WebhookSubscriptionPatch,
} from './webhook-types.ts';

const BASE = '/admin/webhook-subscriptions';
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const withIfMatch = (ifMatch?: string) => (ifMatch === undefined ? {} : { ifMatch });

export function createWebhookAdminApi(client: ApiClient) {
  const path = (id: string, rest = '') => `${BASE}/${encodeURIComponent(id)}${rest}`;
  return {
    listSubscriptions: (clientId: string | null, signal?: AbortSignal) =>
      client.request<WebhookSubscriptionList>(BASE, { query: { clientId }, ...withSignal(signal) }),
    getSubscription: (id: string, signal?: AbortSignal): Promise<Tagged<WebhookSubscription>> =>
      client.requestTagged<WebhookSubscription>(path(id), withSignal(signal)),
    createSubscription: (body: WebhookSubscriptionCreateRequest) =>
      client.request<WebhookSubscriptionCreated>(BASE, { method: 'POST', body }),
    /** A merge patch; with `ifMatch`, made against that version only (412 if it changed since). */
    patchSubscription: (id: string, body: WebhookSubscriptionPatch, ifMatch?: string) =>
      client.requestTagged<WebhookSubscription>(path(id), { method: 'PATCH', body, ...withIfMatch(ifMatch) }),
    deleteSubscription: (id: string, ifMatch?: string) =>
      client.request<null>(path(id), { method: 'DELETE', ...withIfMatch(ifMatch) }),
    rotateSecret: (id: string, body: WebhookSecretRotationRequest) =>
      client.request<WebhookSecretRotation>(path(id, '/rotate-secret'), { method: 'POST', body }),
    listDeliveries: (
      id: string,
      query: { status?: WebhookDeliveryStatus | undefined; before?: string | undefined; limit?: number },
      signal?: AbortSignal,
    ) => client.request<WebhookDeliveryPage>(path(id, '/deliveries'), { query, ...withSignal(signal) }),
    redeliver: (id: string, body: WebhookRedeliveryRequest) =>
      client.request<WebhookRedelivery>(path(id, '/redeliver'), { method: 'POST', body }),
  };
}

export type WebhookAdminApi = ReturnType<typeof createWebhookAdminApi>;
