import type { CatalogSearch } from '@catalog/store';
import type { ReplicaTarget } from '../../follower/replica-target.ts';
import {
  openSqliteFts5Search,
  type SqliteFts5SearchOptions,
} from '../sqlite-fts5/open-sqlite-fts5-search.ts';
import { openReplicaFile, type ReplicaSource } from './open-replica-file.ts';

export type { ReplicaSource };

export interface SqliteReplicaSearchOptions extends SqliteFts5SearchOptions {
  /** The replica's own file, under the instance's data directory. */
  databasePath: string;
}

/** A search index derived from another store's records. */
export interface SearchReplica {
  readonly search: CatalogSearch;
  /** What a FeedFollower writes into. */
  readonly target: ReplicaTarget;
  /** Products per part of the snapshot a new replica is loaded from, when the replica has a preference. */
  readonly snapshotBatchSize?: number;
  close(): Promise<void>;
}

/**
 * The embedded engine as a search index derived from another store's records: the replica file
 * (open-replica-file.ts), and the FTS5 engine over it exactly as over the embedded default, with
 * the source's seq as the tie-breaker, so pages and syncTokens agree between instances.
 */
export async function openSqliteReplicaSearch(
  options: SqliteReplicaSearchOptions,
  source: ReplicaSource,
): Promise<SearchReplica> {
  const { databasePath, ...searchOptions } = options;
  const file = await openReplicaFile(databasePath, source);
  const { close: closeSearch, ...search } = openSqliteFts5Search(
    { databasePath, db: file.db, records: file.records },
    searchOptions,
  );
  return {
    search,
    target: file.target,
    close: async () => {
      await closeSearch();
      await file.close();
    },
  };
}
