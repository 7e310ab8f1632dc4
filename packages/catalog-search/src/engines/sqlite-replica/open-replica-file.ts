import { rmSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import {
  appliedSequence,
  applyRecords,
  loadSnapshot,
  openSqliteCatalogue,
  replicaOrigin,
  type SqliteRecordStore,
  setReplicaOrigin,
} from '@catalog/store/sqlite';
import type { ReplicaTarget } from '../../follower/replica-target.ts';

/** An embedded catalogue file written only from another store's change feed. */
export interface ReplicaFile {
  readonly db: DatabaseSync;
  readonly records: SqliteRecordStore;
  /** What a FeedFollower writes into. */
  readonly target: ReplicaTarget;
  close(): Promise<void>;
}

/** The feed a replica follows: ChangeFeed.origin() and head() as read at start-up. */
export interface ReplicaSource {
  origin: string;
  head: number;
}

/** Deletes a replica file with its WAL and shared-memory files: the next open starts a new one. */
export function removeReplicaFile(databasePath: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
}

/**
 * Opens (creating as needed) the replica file. A new one is loaded from a snapshot of the whole
 * source (the store's load-snapshot.ts), then follows the feed from there. One built from another
 * feed (the instance now points at another database) or ahead of its feed (the database was
 * restored from a backup) cannot be continued: it is deleted and built again the same way.
 */
export async function openReplicaFile(databasePath: string, source: ReplicaSource): Promise<ReplicaFile> {
  let opened = openSqliteCatalogue({ databasePath });
  const origin = replicaOrigin(opened.db);
  if ((origin !== undefined && origin !== source.origin) || appliedSequence(opened.db) > source.head) {
    await opened.store.close();
    removeReplicaFile(databasePath);
    opened = openSqliteCatalogue({ databasePath });
  }
  const { store: records, db } = opened;
  setReplicaOrigin(db, source.origin);
  return {
    db,
    records,
    target: {
      appliedSequence: async () => appliedSequence(db),
      apply: async (changed) => applyRecords(db, changed, changed.through),
      loadSnapshot: (snapshot, onProgress) => loadSnapshot(db, snapshot, onProgress),
    },
    close: () => records.close(),
  };
}
