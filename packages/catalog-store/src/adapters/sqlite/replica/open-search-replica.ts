import { rmSync } from 'node:fs';
import type { CatalogSearch } from '../../../ports/catalog-store.ts';
import type { ReplicaTarget } from '../../../replica/replica-target.ts';
import { openSqliteCatalogue, type SqliteCatalogStoreOptions } from '../open-sqlite-catalog-store.ts';
import { appliedSequence, applyRecords, replicaOrigin, setReplicaOrigin } from './apply-records.ts';
import { loadSnapshot } from './load-snapshot.ts';

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
 * come from the source's change feed through `target`, and its search engine answers exactly as the
 * embedded default does, with the source's seq as the tie-breaker, so pages and syncTokens agree
 * between instances. Nothing else writes to it.
 *
 * A new replica is loaded from a snapshot of the whole source (load-snapshot.ts), then follows the
 * feed from there. A replica built from another feed (the instance now points at another database)
 * or ahead of its feed (the database was restored from a backup) cannot be continued: it is
 * deleted and built again the same way.
 */
export async function openSqliteSearchReplica(
  options: SqliteCatalogStoreOptions,
  source: ReplicaSource,
): Promise<SearchReplica> {
  let opened = openSqliteCatalogue(options);
  const origin = replicaOrigin(opened.db);
  if ((origin !== undefined && origin !== source.origin) || appliedSequence(opened.db) > source.head) {
    await opened.store.close();
    removeDatabase(options.databasePath);
    opened = openSqliteCatalogue(options);
  }
  const { store, db } = opened;
  setReplicaOrigin(db, source.origin);
  return {
    search: {
      productSearch: store.productSearch,
      brandSearch: store.brandSearch,
      compactSearchIndex: () => store.compactSearchIndex(),
    },
    target: {
      appliedSequence: () => appliedSequence(db),
      apply: (records) => applyRecords(db, records, records.through),
      loadSnapshot: (snapshot, onProgress) => loadSnapshot(db, snapshot, onProgress),
    },
    close: () => store.close(),
  };
}
