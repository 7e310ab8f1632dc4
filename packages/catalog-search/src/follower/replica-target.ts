import type { ChangedRecords, SnapshotBatch, SnapshotLoadProgress } from '@catalog/store';

export type { SnapshotLoadProgress };

/**
 * Where a feed follower writes: a search index derived from the records (the embedded engine's
 * replica file, or an engine in a worker or across the network). Every method may take its time:
 * the follower awaits each and never calls two at once.
 */
export interface ReplicaTarget {
  /**
   * The last feed sequence applied; 0 for a new replica. Asked at the start of each catch-up, so
   * an engine that restarts on its own (an index server) is followed from where it really is.
   */
  appliedSequence(): Promise<number>;
  /** Writes the records as they are and moves the applied sequence to `records.through`, atomically. */
  apply(records: ChangedRecords): Promise<void>;
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
