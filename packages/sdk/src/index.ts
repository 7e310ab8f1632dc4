// @catalog/sdk: the integrators' client for the catalog service and its incremental-sync runner.
export type {
  Brand,
  BrandSearchResponse,
  CatalogApi,
  ErrorBody,
  ErrorCode,
  Product,
  ProductListResponse,
  ProductSearchResponse,
  TokenResponse,
} from '@catalog/contracts';
export {
  type AdminClient,
  type AdminClientOptions,
  createAdminClient,
  type ListClientsQuery,
} from './admin-client.ts';
export { type CatalogClient, type CatalogClientOptions, createCatalogClient } from './client.ts';
export * from './errors.ts';
export { fullJitterDelay, parseRetryAfter } from './http/backoff.ts';
export { createFilePacer, type FilePacerOptions } from './http/file-pacer.ts';
export type {
  ClientHooks,
  RateLimitWaitEvent,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  TokenRefreshEvent,
} from './http/hooks.ts';
export { createPacer, DEFAULT_PACING, noPacing, type PacerOptions, type RequestPacer } from './http/pacer.ts';
export type { TransportOptions } from './http/settings.ts';
export { type CachedToken, createMemoryTokenStore, type TokenStore } from './http/tokens.ts';
export { type CallOptions, DEFAULT_RETRY, type RetryPolicy } from './http/transport.ts';
export type { BrandsResource, ListBrandsQuery, SearchBrandsQuery } from './resources/brands.ts';
export type { ListProductsQuery, ProductsResource, SearchProductsQuery } from './resources/products.ts';
export type { CheckpointStore, SyncProgress, SyncState } from './sync/checkpoint-store.ts';
export { createFileCheckpointStore } from './sync/file-checkpoint-store.ts';
export {
  EPOCH,
  MAX_PAGE_ATTEMPTS,
  SyncAbortedError,
  type SyncOptions,
  type SyncReport,
  sync,
} from './sync/sync.ts';
export { createSyncTrigger, type SyncTrigger, type SyncTriggerOptions } from './webhooks/sync-trigger.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookRefusal,
  type WebhookRequest,
  WebhookVerificationError,
} from './webhooks/verify-webhook.ts';
