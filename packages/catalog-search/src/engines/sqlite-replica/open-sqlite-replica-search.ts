import { rmSync } from 'node:fs';
import type { CatalogSearch } from '@catalog/store';
import {
  appliedSequence,
  applyRecords,
  loadSnapshot,
  openSqliteCatalogue,
  replicaOrigin,
  setReplicaOrigin,
} from '@catalog/store/sqlite';
import type { ReplicaTarget } from '../../follower/replica-target.ts';
import {
  openSqliteFts5Search,
  type SqliteFts5SearchOptions,
} from '../sqlite-fts5/open-sqlite-fts5-search.ts';

export interface SqliteReplicaSearchOptions extends SqliteFts5SearchOptions {
  /** The replica's own file, under the instance's data directory. */
  databasePath: string;
}

/** The embedded engine as a search index derived from another store's records. */
export interface SearchReplica {
  readonly search: CatalogSearch;
  /** What a FeedFollower writes into. */
  readonly target: ReplicaTarget;
  close(): Promise<void>;
}

/** The feed a replica follows: ChangeFeed.origin() and head() as read at start-up. */
export interface ReplicaSource {
  origin: string;
  head: number;
}

function removeDatabase(databasePath: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
}

/**
 * Opens (creating as needed) an embedded catalogue database used only as a search replica: its rows
 * come from the source's change feed through `target`, and the FTS5 engine answers over it exactly
 * as over the embedded default, with the source's seq as the tie-breaker, so pages and syncTokens
 * agree between instances. Nothing else writes to it.
 *
 * A new replica is loaded from a snapshot of the whole source (the store's load-snapshot.ts), then
 * follows the feed from there. A replica built from another feed (the instance now points at
 * another database) or ahead of its feed (the database was restored from a backup) cannot be
 * continued: it is deleted and built again the same way.
 */
export async function openSqliteReplicaSearch(
  options: SqliteReplicaSearchOptions,
  source: ReplicaSource,
): Promise<SearchReplica> {
  const { databasePath, ...searchOptions } = options;
  let opened = openSqliteCatalogue({ databasePath });
  const origin = replicaOrigin(opened.db);
  if ((origin !== undefined && origin !== source.origin) || appliedSequence(opened.db) > source.head) {
    await opened.store.close();
    removeDatabase(databasePath);
    opened = openSqliteCatalogue({ databasePath });
  }
  const { store: records, db } = opened;
  setReplicaOrigin(db, source.origin);
  const { close: closeSearch, ...search } = openSqliteFts5Search(
    { databasePath, db, records },
    searchOptions,
  );
  return {
    search,
    target: {
      appliedSequence: async () => appliedSequence(db),
      apply: async (changed) => applyRecords(db, changed, changed.through),
      loadSnapshot: (snapshot, onProgress) => loadSnapshot(db, snapshot, onProgress),
    },
    close: async () => {
      await closeSearch();
      await records.close();
    },
  };
}
