import type { ChangedRecords, SnapshotBatch } from '../model/change.ts';

/**
 * How far a snapshot load has come: `loading` while its products are written (`products` of
 * `total`), then `indexing` while the search rows are derived from them (`products` documents of
 * `total` written).
 */
export interface SnapshotLoadProgress {
  phase: 'loading' | 'indexing';
  products: number;
  total: number;
}

/** Where a feed follower writes: an index derived from the store (the embedded search replica). */
export interface ReplicaTarget {
  /** The last feed sequence applied; 0 for a new replica. */
  appliedSequence(): number;
  /** Writes the records as they are and moves the applied sequence to `records.through`, atomically. */
  apply(records: ChangedRecords): void;
  /**
   * Fills a new replica (applied sequence 0, nothing in it) from a snapshot of the whole source and
   * moves the applied sequence to the snapshot's `through`, atomically: an interrupted load leaves
   * the replica new. Absent, a new replica replays the feed from its start through `apply`.
   */
  loadSnapshot?(
    snapshot: AsyncIterable<SnapshotBatch>,
    onProgress?: (progress: SnapshotLoadProgress) => void,
  ): Promise<void>;
}
