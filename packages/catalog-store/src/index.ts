// Ports, models, errors and engine-neutral helpers. The adapters are on ./sqlite and ./postgres, for
// @catalog/engines' entries and @catalog/search's engines only: programs open storage through the registry.

export { SchemaTooNewError } from './adapters/migration.ts';
// Where the embedded catalogue's file is: a path the CLI's messages and `catalog copy` name, not an opener.
export { catalogDatabasePath, DATABASE_FILE_NAME } from './adapters/sqlite/database-path.ts';
export type { DatabaseUpgradeReport } from './adapters/sqlite/migrate-database.ts';
export { CopyRefusedError } from './copy/copy-refused-error.ts';
export type { SealSigningKeys } from './copy/copy-signing-keys.ts';
// A named cross-engine tool (`pnpm catalog copy`), not an engine: it reads one engine and writes the other.
export {
  type CopyProgress,
  type CopyReport,
  type CopySqliteToPostgresOptions,
  copySqliteToPostgres,
} from './copy/copy-sqlite-to-postgres.ts';
export type { TableRows } from './copy/verify-copy.ts';
export {
  ClientRevokedError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
} from './errors/request-errors.ts';
export {
  IdentifierLookupIncompleteError,
  InvalidSortError,
  InvalidSortFieldError,
  InvalidSyncTokenError,
  SearchIncompleteError,
  SearchTermTooLongError,
  SearchTimeoutError,
} from './errors/search-errors.ts';
export { StoreError, type StoreErrorCode } from './errors/store-error.ts';
export {
  type ImportOptions,
  type ImportProgress,
  type ImportReport,
  importProducts,
  type LineProblem,
} from './import/import-products.ts';
export { canonicalEmail } from './model/admin-email.ts';
export type * from './model/admin-user.ts';
export { DISABLED_PASSWORD_MARK, isAdminUserDisabled } from './model/admin-user.ts';
export type * from './model/audit-event.ts';
export { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from './model/audit-event.ts';
export type * from './model/brand.ts';
export type * from './model/change.ts';
export { CHANGE_ENTITIES } from './model/change.ts';
export { externalProductJson, type ProductView, projectProduct } from './model/external-product.ts';
export type * from './model/m2m-client.ts';
export { CLIENT_SCOPES, isClientUsable } from './model/m2m-client.ts';
export type * from './model/product.ts';
export { PRODUCT_STATUSES, RELATION_TYPES } from './model/product.ts';
export type * from './model/replica-progress.ts';
export type * from './model/search.ts';
export {
  OFFSET_WINDOW,
  REPORTED_TOTAL_CAP,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SEARCH_TERM_MAX_LENGTH,
  SORT_FIELDS,
  SORT_ORDERS,
} from './model/search.ts';
export { displayOnWebFor } from './model/visibility.ts';
export type * from './model/web-channel.ts';
export { registryVersion, WEB_CHANNEL_SLUG_PATTERN } from './model/web-channel.ts';
export type * from './model/webhook.ts';
export { EVENT_TYPE_SCOPE, WEBHOOK_EVENT_TYPES, webhookSubscriptionState } from './model/webhook.ts';
export type * from './ports/admin-user-store.ts';
export type * from './ports/audit-log.ts';
export type * from './ports/brand-search.ts';
export type * from './ports/brand-store.ts';
export type * from './ports/catalog-store.ts';
export type * from './ports/change-feed.ts';
export type * from './ports/client-store.ts';
export type * from './ports/product-search.ts';
export type * from './ports/product-store.ts';
export type * from './ports/signing-key-set-store.ts';
export type * from './ports/web-channel-store.ts';
export type * from './ports/webhook-store.ts';
export type { ExpectedVersion } from './records/expected-version.ts';
export { foldText } from './search/fold-text.ts';
export { identifierKey } from './search/identifier-key.ts';
export { ensureDemoCatalogue } from './seed/ensure-demo-catalogue.ts';
export { type CatalogueSpec, generateProductBatches } from './seed/generate-catalogue.ts';
export { random as seededRandom } from './seed/prng.ts';
export { rewriteLatestProducts } from './seed/rewrite-latest-products.ts';
export {
  type SeedOptions,
  type SeedProgress,
  type SeedReport,
  seedCatalogue,
} from './seed/seed-catalogue.ts';
export { type StorageLocation, storageLocation } from './storage-location.ts';
export type { Problem } from './validation/problem.ts';
export {
  assertProductInput,
  checkProductInput,
  type ProductInputCheck,
} from './validation/product-input.ts';
