import { type StorageLocation, storageLocation } from '@catalog/store';
import { defaultRegistry } from './default-registry.ts';
import { EngineConfigurationError } from './engine-configuration-error.ts';
import { type EngineRegistry, recordsEngineOf } from './engine-registry.ts';

/** The engines a program's configuration names: where the records are, and which search engine. */
export interface EngineSelection {
  readonly records: StorageLocation;
  readonly search: string;
}

/**
 * The selection of a program's parsed configuration: PostgreSQL records when DATABASE_URL is set,
 * else the embedded SQLite in DATA_DIR; SEARCH_ENGINE when set, else the records engine's default.
 * Called once at start-up, so a name the registry lacks, or an engine that cannot run over the
 * records, stops the program before it opens anything.
 */
export function engineSelection(
  config: {
    readonly dataDir: string;
    readonly databaseUrl: string | undefined;
    readonly searchEngine: string | undefined;
  },
  registry: EngineRegistry = defaultRegistry,
): EngineSelection {
  return selectEngines(storageLocation(config), config.searchEngine, registry);
}

/** The selection over records already located (the operator CLI resolves them from its options). */
export function selectEngines(
  records: StorageLocation,
  searchEngine: string | undefined,
  registry: EngineRegistry = defaultRegistry,
): EngineSelection {
  const search = searchEngine ?? recordsEngineOf(registry, records).defaultSearchEngine;
  const engine = registry.search.get(search);
  if (engine === undefined) {
    const names = [...registry.search.keys()].join(', ');
    throw new EngineConfigurationError(
      `SEARCH_ENGINE "${search}" is not a search engine; use one of: ${names}`,
    );
  }
  const refusal = engine.refusal(records);
  if (refusal !== undefined) throw new EngineConfigurationError(`SEARCH_ENGINE "${search}": ${refusal}`);
  return Object.freeze({ records, search });
}
