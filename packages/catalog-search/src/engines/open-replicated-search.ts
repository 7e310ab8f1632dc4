import type { CatalogStore, RecordStore, ReplicaBuildProgress } from '@catalog/store';
import { FeedFollower } from '../follower/feed-follower.ts';
import { replicatedSearch } from '../follower/replicated-search.ts';
import type { ReplicaSource, SearchReplica } from './sqlite-replica/open-sqlite-replica-search.ts';

export interface ReplicatedSearchWiring {
  /** PostgreSQL: how long a search may wait for this instance's replica to catch up (default 2 s). */
  freshnessTimeoutMs?: number;
  /** PostgreSQL: how often the replica reads the feed when no search asks (default 100 ms). */
  replicaPollIntervalMs?: number;
  /** PostgreSQL: a failed read of the feed or apply to the replica (it retries at the next poll). */
  onReplicaError?: (error: unknown) => void;
  /**
   * PostgreSQL: when the replica is new (a first start, or one whose build was interrupted), resolve
   * once the records are open and build it behind (searches refused until it is built,
   * `searchReplicaProgress` saying how far it is) instead of only once it is built: an API instance
   * listens meanwhile, so its probes can say why it is not ready. A replica kept from an earlier run
   * is still brought up to the feed's head before this resolves, as its searches were answered before.
   */
  replicaInBackground?: boolean;
  /** PostgreSQL: the replica's first catch-up, at a bounded cadence (FeedFollowerOptions.onProgress). */
  onReplicaProgress?: (progress: ReplicaBuildProgress) => void;
  replicaProgressIntervalMs?: number;
}

/**
 * Records in one engine, search in a per-instance replica fed by their change feed (PostgreSQL
 * records + the SQLite replica today; any ReplicaTarget engine plugs in the same way). The replica
 * is brought up to the feed's head before this resolves, so an instance answers its first search
 * from a complete index, unless `replicaInBackground` says otherwise.
 */
export async function openReplicatedSearch(
  records: RecordStore,
  openReplica: (source: ReplicaSource) => Promise<SearchReplica>,
  wiring: ReplicatedSearchWiring,
): Promise<CatalogStore> {
  const replica = await openReplica({
    origin: await records.changes.origin(),
    head: await records.changes.head(),
  });
  const follower = new FeedFollower(records.changes, replica.target, {
    ...(replica.snapshotBatchSize === undefined ? {} : { snapshotBatchSize: replica.snapshotBatchSize }),
    ...(wiring.replicaPollIntervalMs === undefined ? {} : { pollIntervalMs: wiring.replicaPollIntervalMs }),
    ...(wiring.onReplicaError === undefined ? {} : { onError: wiring.onReplicaError }),
    ...(wiring.onReplicaProgress === undefined ? {} : { onProgress: wiring.onReplicaProgress }),
    ...(wiring.replicaProgressIntervalMs === undefined
      ? {}
      : { progressIntervalMs: wiring.replicaProgressIntervalMs }),
  });
  if (wiring.replicaInBackground !== true || (await replica.target.appliedSequence()) > 0) {
    try {
      await follower.catchUp();
    } catch (error) {
      await replica.close();
      await records.close();
      throw error;
    }
  }
  // In the background, the first poll builds the replica; a failed build is retried at the next.
  follower.start();
  const search = replicatedSearch(replica.search, follower, records.changes, {
    ...(wiring.freshnessTimeoutMs === undefined ? {} : { freshnessTimeoutMs: wiring.freshnessTimeoutMs }),
  });
  let closed: Promise<void> | undefined;
  return {
    ...records,
    // A load is one transaction on PostgreSQL: the instance answers searches once its replica
    // holds all of it (the API's demo load at first start happens before it listens).
    loadIfEmpty: async (snapshot) => {
      const loaded = await records.loadIfEmpty(snapshot);
      // Nothing loaded, nothing to wait for: a replica building in the background is not held up.
      if (loaded) await follower.catchUp();
      return loaded;
    },
    ...search,
    searchReplicaProgress: () => follower.buildProgress(),
    close: () => {
      closed ??= (async () => {
        await follower.stop();
        await replica.close();
        await records.close();
      })();
      return closed;
    },
  };
}
