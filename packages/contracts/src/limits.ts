// Parameter defaults and bounds, read off the document.
import { catalogApiDocument } from './documents.ts';

const { parameters, schemas } = catalogApiDocument.components;
const search = catalogApiDocument.paths['/products/search'].get;

/** Default `size` of the search endpoints (20). */
export const SEARCH_SIZE_DEFAULT: number = parameters.PageSize.schema.default;
/** Maximum `size` of the search endpoints (100). */
export const SEARCH_SIZE_MAX: number = parameters.PageSize.schema.maximum;
/** Default `from` (0). */
export const SEARCH_FROM_DEFAULT: number = parameters.PageFrom.schema.default;
/** Maximum length of `q` on GET /products/search (256). */
export const Q_MAX_LENGTH: number = parameters.SearchTerm.schema.maxLength;
/** `pagination.total` is capped at this value (10000), `totalIsLowerBound` then being true. */
export const REPORTED_TOTAL_CAP: number = schemas.SearchPagination.properties.total.maximum;
/** `from + size` must not exceed this value (10000); page further with `syncToken`. */
export const OFFSET_WINDOW: number = search['x-offset-window'].max;
/** Recommended rewind of the sync checkpoint, in seconds (900). */
export const SYNC_OVERLAP_SECONDS: number = search['x-sync-overlap-seconds'];
/** Default `limit` of the deprecated GET /products (20). */
export const LIST_LIMIT_DEFAULT: number = parameters.ListLimit.schema.default;

/** M2M client name: 3 to 100 characters. */
export const CLIENT_NAME_MIN_LENGTH: number = schemas.ClientName.minLength;
export const CLIENT_NAME_MAX_LENGTH: number = schemas.ClientName.maxLength;
export const CLIENT_NAME_PATTERN = new RegExp(schemas.ClientName.pattern, 'u');
/** M2M client description: at most 500 characters. */
export const CLIENT_DESCRIPTION_MAX_LENGTH: number = schemas.ClientDescription.maxLength;
/** M2M client ID: 26 alphanumeric characters. */
export const CLIENT_ID_PATTERN = new RegExp(schemas.ClientId.pattern, 'u');
/** Web-channel slugs are kebab-case. */
export const CHANNEL_SLUG_PATTERN = new RegExp(schemas.ChannelSlug.pattern, 'u');
/** expiresInDays on client creation: 1 to 365. */
export const EXPIRES_IN_DAYS_MIN: number = schemas.ClientCreateRequest.properties.expiresInDays.minimum;
export const EXPIRES_IN_DAYS_MAX: number = schemas.ClientCreateRequest.properties.expiresInDays.maximum;
/** Minimum number of scopes on client creation (1). */
export const CLIENT_SCOPES_MIN: number = schemas.ClientCreateRequest.properties.scopes.minItems;
