// Convenient names for the generated types. Every one is taken from the generated `components` or
// `operations`; none is written by hand.
import type * as AuthServer from './generated/auth-server.ts';
import type * as CatalogApi from './generated/catalog-api.ts';
import type { RequestView } from './validation/request-types.ts';

type Schemas = CatalogApi.components['schemas'];
type AuthSchemas = AuthServer.components['schemas'];

// Catalog reads (allowlisted representations)
export type Product = Schemas['Product'];
export type ProductLink = Schemas['ProductLink'];
export type RelatedProduct = Schemas['RelatedProduct'];
export type ReducedProduct = Schemas['ReducedProduct'];
export type Brand = Schemas['Brand'];
export type ProductSearchResponse = Schemas['ProductSearchResponse'];
export type SearchPagination = Schemas['SearchPagination'];
export type SearchMeta = Schemas['SearchMeta'];
export type ProductAggregations = Schemas['ProductAggregations'];
export type BrandSearchResponse = Schemas['BrandSearchResponse'];
export type ProductListResponse = Schemas['ProductListResponse'];
export type SortColumn = Schemas['SortColumn'];
export type SortOrder = CatalogApi.components['schemas']['SortDirection'];
export type RelationType = Schemas['RelationType'];

// Errors
export type ErrorCode = Schemas['ErrorCode'];
export type ErrorBody = Schemas['ErrorBody'];
export type InternalErrorBody = Schemas['InternalErrorBody'];
export type GatewayErrorBody = Schemas['GatewayErrorBody'];
export type BrandSearchErrorBody = Schemas['BrandSearchErrorBody'];
export type ClientValidationErrorBody = Schemas['ClientValidationErrorBody'];
export type FieldError = Schemas['FieldError'];

// M2M clients (admin)
export type GrantableScope = Schemas['GrantableScope'];
export type ClientStatus = Schemas['ClientStatus'];
export type M2MClient = Schemas['M2MClient'];
export type M2MClientCreated = Schemas['M2MClientCreated'];
export type M2MClientList = Schemas['M2MClientList'];
export type AdminUserRef = Schemas['AdminUserRef'];
export type ClientCreateRequest = Schemas['ClientCreateRequest'];
export type ClientUpdateRequest = Schemas['ClientUpdateRequest'];
export type ClientRevocation = Schemas['ClientRevocation'];
export type SecretRotationInstructions = Schemas['SecretRotationInstructions'];
export type SearchPreview = Schemas['SearchPreview'];
export type SearchPreviewSubject = Schemas['SearchPreviewSubject'];
export type SearchPreviewAccess = Schemas['SearchPreviewAccess'];

// Catalogue administration
export type AdminProduct = Schemas['AdminProduct'];
/** The admin product record as written: server-set fields (`id`, `createdAt`, `updatedAt`) optional. */
export type AdminProductInput = RequestView<AdminProduct>;
export type AdminRelatedProduct = Schemas['AdminRelatedProduct'];
export type SparePart = Schemas['SparePart'];
export type ProductStatus = Schemas['ProductStatus'];
export type AdminBrand = Schemas['AdminBrand'];
/** The admin brand record as written: server-set fields optional. */
export type AdminBrandInput = RequestView<AdminBrand>;
export type BrandOverviewEntry = Schemas['BrandOverviewEntry'];
export type BatchGetProductsRequest = Schemas['BatchGetProductsRequest'];
export type BatchGetProductsResponse = Schemas['BatchGetProductsResponse'];
export type CheckDuplicatesRequest = Schemas['CheckDuplicatesRequest'];
export type CheckDuplicatesResponse = Schemas['CheckDuplicatesResponse'];
export type ExistingForPreviewRequest = Schemas['ExistingForPreviewRequest'];
export type ExistingForPreviewResponse = Schemas['ExistingForPreviewResponse'];
export type WebChannel = Schemas['WebChannel'];
export type WebChannelList = Schemas['WebChannelList'];
export type HealthStatus = Schemas['HealthStatus'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventPage = Schemas['AuditEventPage'];
export type AuditAction = Schemas['AuditAction'];
export type AuditTargetType = Schemas['AuditTargetType'];

export type CatalogOperationId = keyof CatalogApi.operations;

// Token server
export type TokenRequest = AuthSchemas['TokenRequest'];
export type TokenResponse = AuthSchemas['TokenResponse'];
export type TokenErrorCode = AuthSchemas['TokenErrorCode'];
export type TokenErrorBody = AuthSchemas['TokenErrorBody'];
export type JsonWebKey = AuthSchemas['JsonWebKey'];
export type JsonWebKeySet = AuthSchemas['JsonWebKeySet'];
export type AuthServerOperationId = keyof AuthServer.operations;
export type WebhookEvent = Schemas['WebhookEvent'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookSubscription = Schemas['WebhookSubscription'];
export type WebhookSubscriptionCreated = Schemas['WebhookSubscriptionCreated'];
export type WebhookSubscriptionList = Schemas['WebhookSubscriptionList'];
export type WebhookSubscriptionCreateRequest = Schemas['WebhookSubscriptionCreateRequest'];
export type WebhookSubscriptionPatch = Schemas['WebhookSubscriptionPatch'];
export type WebhookSecretRotation = Schemas['WebhookSecretRotation'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryPage'];
export type WebhookRedeliveryRequest = Schemas['WebhookRedeliveryRequest'];
