import type { ReplicatedSearchWiring } from './open-replicated-search.ts';
import type { SqliteFts5SearchOptions } from './sqlite-fts5/open-sqlite-fts5-search.ts';

/** What a program tunes when it opens its catalogue: the engine's own options and the replica wiring. */
export interface OpenCatalogueOptions extends SqliteFts5SearchOptions, ReplicatedSearchWiring {}

/** The options a feed-driven engine is opened with, apart from how its follower is wired. */
export function splitCatalogueOptions(options: OpenCatalogueOptions): {
  readonly engine: SqliteFts5SearchOptions;
  readonly wiring: ReplicatedSearchWiring;
} {
  const {
    freshnessTimeoutMs,
    replicaPollIntervalMs,
    onReplicaError,
    replicaInBackground,
    onReplicaProgress,
    replicaProgressIntervalMs,
    ...engine
  } = options;
  // Spelled out so that an unset option stays absent (exactOptionalPropertyTypes).
  const wiring: ReplicatedSearchWiring = {
    ...(freshnessTimeoutMs === undefined ? {} : { freshnessTimeoutMs }),
    ...(replicaPollIntervalMs === undefined ? {} : { replicaPollIntervalMs }),
    ...(onReplicaError === undefined ? {} : { onReplicaError }),
    ...(replicaInBackground === undefined ? {} : { replicaInBackground }),
    ...(onReplicaProgress === undefined ? {} : { onReplicaProgress }),
    ...(replicaProgressIntervalMs === undefined ? {} : { replicaProgressIntervalMs }),
  };
  return { engine, wiring };
}
