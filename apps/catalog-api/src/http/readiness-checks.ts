import type { ReadinessCheck } from '@catalog/server-runtime';
import type { CatalogStore } from '@catalog/store';
import type { TokenVerifier } from '../auth/token-verifier.ts';

// No client has this id (ids are 26 characters): the lookup reads an index and finds nothing.
const PROBE_CLIENT_ID = 'readiness-probe';

/**
 * What the API needs before it can answer: the store (open, migrated: the lookup reads the clients
 * table through the same connection every request uses) and the token server's keys (fetched
 * within their cache lifetime, or fetchable now).
 */
export function apiReadinessChecks(
  store: Pick<CatalogStore, 'clients' | 'searchReplicaProgress'>,
  verifier: TokenVerifier,
): Record<string, ReadinessCheck> {
  return {
    store: async () => {
      await store.clients.get(PROBE_CLIENT_ID);
      return true;
    },
    jwks: () => verifier.keysAvailable(),
    // PostgreSQL: no search is answered until this instance's replica is built (tens of seconds at 1M).
    ...(store.searchReplicaProgress === undefined
      ? {}
      : { searchReplica: () => store.searchReplicaProgress?.()?.state === 'built' }),
  };
}

/** The search replica's progress in the /ready body, so that an operator sees why and for how long. */
export function apiReadinessDetails(
  store: Pick<CatalogStore, 'searchReplicaProgress'>,
): () => Record<string, unknown> {
  return () => {
    const progress = store.searchReplicaProgress?.();
    return progress === undefined || progress === null ? {} : { searchReplica: progress };
  };
}
