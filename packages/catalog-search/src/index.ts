// The engine port, the engine-neutral search semantics above it, and the change-feed follower.
// Engines are in the ./engines entry, which only the engine registry imports.

export {
  type CatalogSearchOptions,
  catalogSearchOver,
  type OpenedSearch,
} from './engine/catalog-search-over-engine.ts';
export type * from './engine/search-engine.ts';
export type {
  SearchJobOutcome,
  SearchKind,
  SearchPoolLoad,
  SearchPoolObserver,
} from './engines/sqlite-fts5/worker-pool.ts';
export { FeedFollower, type FeedFollowerOptions } from './follower/feed-follower.ts';
export type { ReplicaPosition } from './follower/replica-position.ts';
export type { ReplicaTarget, SnapshotLoadProgress } from './follower/replica-target.ts';
export {
  DEFAULT_FRESHNESS_TIMEOUT_MS,
  type ReplicatedSearchOptions,
  replicatedSearch,
} from './follower/replicated-search.ts';
export { SYNC_TOKEN_TTL_MS } from './paging/sync-token.ts';
export {
  type NormalisedProductQuery,
  normaliseProductQuery,
  type OrderBy,
} from './query/normalise-product-query.ts';
export { searchTerms } from './query/search-terms.ts';
