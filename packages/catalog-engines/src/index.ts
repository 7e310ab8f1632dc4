// The engine registry, the only way a program opens storage: the selection its configuration
// names, the openers over it, and the registry's types for a test (or a build) adding an engine.

export { defaultRegistry } from './default-registry.ts';
export { EngineConfigurationError } from './engine-configuration-error.ts';
export type {
  EngineRegistry,
  LocationOf,
  RecordsEngine,
  RecordsEngineName,
  SearchEngine,
  SearchOver,
} from './engine-registry.ts';
export { withSearchEngines } from './engine-registry.ts';
export { type EngineSelection, engineSelection, selectEngines } from './engine-selection.ts';
export { type OpenReplica, replicaSearchEngine } from './entries/replica-search-engine.ts';
export {
  catalogueAbsence,
  describeRecords,
  migrateCatalogue,
  openCatalogue,
  openDeploymentSigningKeys,
  openEmbeddedWebhookOutbox,
  openLoadTarget,
  openRecords,
  openSigningKeys,
} from './open-catalog.ts';
