// Request and response bodies of the catalog API, taken from the contract (type-only import).
import type { CatalogApi } from '@catalog/contracts';

type Schemas = CatalogApi.components['schemas'];

export type M2MClient = Schemas['M2MClient'];
export type M2MClientCreated = Schemas['M2MClientCreated'];
export type M2MClientList = Schemas['M2MClientList'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEventPage = Schemas['AuditEventPage'];
export type ClientCreateRequest = Schemas['ClientCreateRequest'];
export type ClientUpdateRequest = Schemas['ClientUpdateRequest'];
export type ClientRevocation = Schemas['ClientRevocation'];
export type GrantableScope = Schemas['GrantableScope'];
export type ClientStatus = Schemas['ClientStatus'];
export type WebChannel = Schemas['WebChannel'];
export type WebChannelList = Schemas['WebChannelList'];
export type SearchPreview = Schemas['SearchPreview'];
export type ProductSearchResponse = Schemas['ProductSearchResponse'];
export type Product = Schemas['Product'];
export type SortColumn = Schemas['SortColumn'];
export type ErrorBody = Schemas['ErrorBody'];
export type ClientValidationErrorBody = Schemas['ClientValidationErrorBody'];
export type FieldError = Schemas['FieldError'];
export type PreviewQuery = NonNullable<CatalogApi.operations['previewProductSearch']['parameters']['query']>;
