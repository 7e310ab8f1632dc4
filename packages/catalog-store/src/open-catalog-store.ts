import { join } from 'node:path';
import { openPostgresRecordStore } from './adapters/postgres/open-postgres-record-store.ts';
import { catalogDatabasePath } from './adapters/sqlite/database-path.ts';
import {
  openSqliteCatalogStore,
  type SqliteCatalogStoreOptions,
} from './adapters/sqlite/open-sqlite-catalog-store.ts';
import { openSqliteSearchReplica } from './adapters/sqlite/replica/open-search-replica.ts';
import type { ReplicaBuildProgress } from './model/replica-progress.ts';
import type { CatalogStore, RecordStore } from './ports/catalog-store.ts';
import { FeedFollower } from './replica/feed-follower.ts';
import { replicatedSearch } from './replica/replicated-search.ts';

/**
 * Where a deployment keeps its catalogue: the embedded default (one SQLite file under `dataDir`),
 * or PostgreSQL (`DATABASE_URL`), with each instance's search replica under its own `dataDir`.
 */
export type StorageLocation =
  | { engine: 'sqlite'; dataDir: string }
  | { engine: 'postgres'; url: string; dataDir: string };

/** The location a server's configuration names: DATABASE_URL when set, else the embedded default. */
export function storageLocation(config: {
  dataDir: string;
  databaseUrl: string | undefined;
}): StorageLocation {
  return config.databaseUrl === undefined
    ? { engine: 'sqlite', dataDir: config.dataDir }
    : { engine: 'postgres', url: config.databaseUrl, dataDir: config.dataDir };
}

export const SEARCH_REPLICA_FILE_NAME = 'search-replica.sqlite';

export interface OpenCatalogStoreOptions extends Omit<SqliteCatalogStoreOptions, 'databasePath'> {
  location: StorageLocation;
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

/** The records alone (the token server, the operator CLI's record commands). */
export async function openRecordStore(location: StorageLocation): Promise<RecordStore> {
  if (location.engine === 'postgres') return openPostgresRecordStore({ url: location.url });
  return openSqliteCatalogStore({ databasePath: catalogDatabasePath(location.dataDir), searchWorkers: 1 });
}

/**
 * Records and search, as the API needs them. On PostgreSQL the search is this instance's replica
 * (store README, "Search on PostgreSQL"), brought up to the feed's head before this resolves, so an
 * instance answers its first search from a complete index.
 */
export async function openCatalogStore(options: OpenCatalogStoreOptions): Promise<CatalogStore> {
  const {
    location,
    freshnessTimeoutMs,
    replicaPollIntervalMs,
    onReplicaError,
    replicaInBackground,
    onReplicaProgress,
    replicaProgressIntervalMs,
    ...engine
  } = options;
  if (location.engine === 'sqlite') {
    return openSqliteCatalogStore({ ...engine, databasePath: catalogDatabasePath(location.dataDir) });
  }
  const records = await openPostgresRecordStore({ url: location.url });
  const replica = await openSqliteSearchReplica(
    { ...engine, databasePath: join(location.dataDir, SEARCH_REPLICA_FILE_NAME) },
    { origin: await records.changes.origin(), head: await records.changes.head() },
  );
  const follower = new FeedFollower(records.changes, replica.target, {
    ...(replicaPollIntervalMs === undefined ? {} : { pollIntervalMs: replicaPollIntervalMs }),
    ...(onReplicaError === undefined ? {} : { onError: onReplicaError }),
    ...(onReplicaProgress === undefined ? {} : { onProgress: onReplicaProgress }),
    ...(replicaProgressIntervalMs === undefined ? {} : { progressIntervalMs: replicaProgressIntervalMs }),
  });
  if (replicaInBackground !== true || replica.target.appliedSequence() > 0) {
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
    ...(freshnessTimeoutMs === undefined ? {} : { freshnessTimeoutMs }),
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
