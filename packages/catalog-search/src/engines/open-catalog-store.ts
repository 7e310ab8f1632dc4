import { join } from 'node:path';
import { type CatalogStore, openRecordStore, type StorageLocation } from '@catalog/store';
import { catalogDatabasePath } from '@catalog/store/sqlite';
import { openReplicatedSearch, type ReplicatedSearchWiring } from './open-replicated-search.ts';
import { openSqliteCatalogStore } from './sqlite-fts5/open-sqlite-catalog-store.ts';
import type { SqliteFts5SearchOptions } from './sqlite-fts5/open-sqlite-fts5-search.ts';
import { openSqliteReplicaSearch } from './sqlite-replica/open-sqlite-replica-search.ts';

export const SEARCH_REPLICA_FILE_NAME = 'search-replica.sqlite';

export interface OpenCatalogStoreOptions extends SqliteFts5SearchOptions, ReplicatedSearchWiring {
  location: StorageLocation;
}

/**
 * Records and search, as the API needs them: the embedded file with its FTS5 engine, or the
 * PostgreSQL records with this instance's replica (README, "Search on PostgreSQL").
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
  const wiring: ReplicatedSearchWiring = {
    ...(freshnessTimeoutMs === undefined ? {} : { freshnessTimeoutMs }),
    ...(replicaPollIntervalMs === undefined ? {} : { replicaPollIntervalMs }),
    ...(onReplicaError === undefined ? {} : { onReplicaError }),
    ...(replicaInBackground === undefined ? {} : { replicaInBackground }),
    ...(onReplicaProgress === undefined ? {} : { onReplicaProgress }),
    ...(replicaProgressIntervalMs === undefined ? {} : { replicaProgressIntervalMs }),
  };
  return openReplicatedSearch(
    await openRecordStore(location),
    (source) =>
      openSqliteReplicaSearch(
        { ...engine, databasePath: join(location.dataDir, SEARCH_REPLICA_FILE_NAME) },
        source,
      ),
    wiring,
  );
}
