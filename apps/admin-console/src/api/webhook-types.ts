// The webhook subscriptions' request and response bodies, taken from the contract (type-only import).
import type { CatalogApi } from '@catalog/contracts';

type Schemas = CatalogApi.components['schemas'];

export type WebhookSubscription = Schemas['WebhookSubscription'];
export type WebhookSubscriptionCreated = Schemas['WebhookSubscriptionCreated'];
export type WebhookSubscriptionList = Schemas['WebhookSubscriptionList'];
export type WebhookSubscriptionCreateRequest = Schemas['WebhookSubscriptionCreateRequest'];
export type WebhookSubscriptionPatch = Schemas['WebhookSubscriptionPatch'];
export type WebhookSubscriptionState = Schemas['WebhookSubscriptionState'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookSecretRotationRequest = Schemas['WebhookSecretRotationRequest'];
export type WebhookSecretRotation = Schemas['WebhookSecretRotation'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryPage'];
export type WebhookRedeliveryRequest = Schemas['WebhookRedeliveryRequest'];
export type WebhookRedelivery = Schemas['WebhookRedelivery'];
