import type { SigningKeyStore } from '@catalog/identity';
import type { OpenCatalogueOptions } from '@catalog/search/engines';
import type {
  CatalogStore,
  DatabaseUpgradeReport,
  LoadTarget,
  RecordStore,
  StorageLocation,
} from '@catalog/store';

/** The name a records engine is registered under: the `engine` of the location configuration gives. */
export type RecordsEngineName = StorageLocation['engine'];

export type LocationOf<Name extends RecordsEngineName> = Extract<StorageLocation, { engine: Name }>;

/** Everything a program opens on one records engine, in one entry. */
export interface RecordsEngine<Name extends RecordsEngineName = RecordsEngineName> {
  readonly name: Name;
  /** The search engine a deployment gets when SEARCH_ENGINE is unset. */
  readonly defaultSearchEngine: string;
  /** The records alone (the token server, the operator CLI's record commands). */
  openRecords(location: LocationOf<Name>): Promise<RecordStore>;
  /** The target of a bulk load (seed, import), created and migrated on first use. */
  openLoadTarget(location: LocationOf<Name>): Promise<LoadTarget>;
  /** Brings the schema up to date; the report is what `pnpm catalog migrate` prints. */
  migrate(location: LocationOf<Name>): Promise<DatabaseUpgradeReport>;
  /** The deployment's signing keys; `pepper` is asked for only where the keys are sealed with it. */
  openSigningKeyStore(
    location: LocationOf<Name>,
    pepper: () => Promise<Uint8Array>,
  ): Promise<SigningKeyStore>;
  /** Where the catalogue is, for messages, never with the credentials a URL may carry. */
  describe(location: LocationOf<Name>): string;
  /** Why there is no catalogue to read at this location, or undefined (a read must not create one). */
  absence(location: LocationOf<Name>): string | undefined;
}

/** What a search engine is opened over: the configured records and their engine. */
export interface SearchOver {
  readonly location: StorageLocation;
  readonly records: RecordsEngine;
  readonly options: OpenCatalogueOptions;
}

/** One search engine: how records and search are opened together as the API's catalogue. */
export interface SearchEngine {
  readonly name: string;
  /** Why this engine cannot run over these records, or undefined when it can. */
  refusal(location: StorageLocation): string | undefined;
  openCatalogue(over: SearchOver): Promise<CatalogStore>;
}

/** The records engines (one per location kind) and the search engines, by name. */
export interface EngineRegistry {
  readonly records: { readonly [Name in RecordsEngineName]: RecordsEngine<Name> };
  readonly search: ReadonlyMap<string, SearchEngine>;
}

/** The entry of a location's records engine, typed for that location. */
export function recordsEngineOf<Name extends RecordsEngineName>(
  registry: EngineRegistry,
  location: LocationOf<Name>,
): RecordsEngine<Name> {
  return registry.records[location.engine] as RecordsEngine<Name>;
}

/** A registry with more search engines: how a test (or a deployment's build) adds one. */
export function withSearchEngines(registry: EngineRegistry, ...engines: SearchEngine[]): EngineRegistry {
  return {
    records: registry.records,
    search: new Map([...registry.search, ...engines.map((engine) => [engine.name, engine] as const)]),
  };
}
