import { type DeploymentPepper, existingDeploymentPepper, type SigningKeyStore } from '@catalog/identity';
import type { OpenCatalogueOptions } from '@catalog/search/engines';
import {
  type CatalogStore,
  catalogDatabasePath,
  type DatabaseUpgradeReport,
  type LoadTarget,
  type RecordStore,
  type StorageLocation,
} from '@catalog/store';
import {
  openSqliteWebhookStore,
  type SqliteWebhookStore,
  type SqliteWebhookStoreOptions,
} from '@catalog/store/sqlite';
import { defaultRegistry } from './default-registry.ts';
import { EngineConfigurationError } from './engine-configuration-error.ts';
import { type EngineRegistry, recordsEngineOf } from './engine-registry.ts';
import type { EngineSelection } from './engine-selection.ts';

/** The API's catalogue: the selected records with the selected search engine over them. */
export async function openCatalogue(
  selection: EngineSelection,
  options: OpenCatalogueOptions = {},
  registry: EngineRegistry = defaultRegistry,
): Promise<CatalogStore> {
  const search = registry.search.get(selection.search);
  if (search === undefined) throw new EngineConfigurationError(`no search engine "${selection.search}"`);
  return search.openCatalogue({
    location: selection.records,
    records: recordsEngineOf(registry, selection.records),
    options,
  });
}

/** The records alone (the token server, the operator CLI's record commands). */
export function openRecords(
  location: StorageLocation,
  registry: EngineRegistry = defaultRegistry,
): Promise<RecordStore> {
  return recordsEngineOf(registry, location).openRecords(location);
}

/**
 * The embedded records' webhook outbox on a connection of its own (the API's outbox thread), over a
 * catalogue the API has already opened and migrated.
 */
export async function openEmbeddedWebhookOutbox(
  location: Extract<StorageLocation, { engine: 'sqlite' }>,
  options: Omit<SqliteWebhookStoreOptions, 'databasePath'>,
): Promise<SqliteWebhookStore> {
  return openSqliteWebhookStore({ ...options, databasePath: catalogDatabasePath(location.dataDir) });
}

/** The target of `pnpm catalog seed` and `import`, created and migrated on first use. */
export function openLoadTarget(
  location: StorageLocation,
  registry: EngineRegistry = defaultRegistry,
): Promise<LoadTarget> {
  return recordsEngineOf(registry, location).openLoadTarget(location);
}

/** `pnpm catalog migrate`: brings the records' schema up to date. */
export function migrateCatalogue(
  location: StorageLocation,
  registry: EngineRegistry = defaultRegistry,
): Promise<DatabaseUpgradeReport> {
  return recordsEngineOf(registry, location).migrate(location);
}

/** Where the records are, for messages, without the credentials a URL may carry. */
export function describeRecords(
  location: StorageLocation,
  registry: EngineRegistry = defaultRegistry,
): string {
  return recordsEngineOf(registry, location).describe(location);
}

/** Why there is no catalogue to read at `location`, or undefined: checked before a read-only command. */
export function catalogueAbsence(
  location: StorageLocation,
  registry: EngineRegistry = defaultRegistry,
): string | undefined {
  return recordsEngineOf(registry, location).absence(location);
}

/** The token server's signing keys, beside its records; `pepper` seals them where they are shared. */
export function openSigningKeys(
  location: StorageLocation,
  pepper: () => Promise<Uint8Array>,
  registry: EngineRegistry = defaultRegistry,
): Promise<SigningKeyStore> {
  return recordsEngineOf(registry, location).openSigningKeyStore(location, pepper);
}

/**
 * The signing keys `pnpm admin keys rotate` works on, where the deployment's token servers read
 * them, sealed (where they are) with the pepper those servers already have. Close it after use.
 */
export function openDeploymentSigningKeys(
  options: { readonly storage: StorageLocation } & Pick<DeploymentPepper, 'clientSecretPepper'>,
  registry: EngineRegistry = defaultRegistry,
): Promise<SigningKeyStore> {
  const { storage, clientSecretPepper } = options;
  return openSigningKeys(
    storage,
    () => existingDeploymentPepper({ dataDir: storage.dataDir, clientSecretPepper }),
    registry,
  );
}
