import type { ChangedRecords } from '../model/change.ts';

/** Where a feed follower writes: an index derived from the store (the embedded search replica). */
export interface ReplicaTarget {
  /** The last feed sequence applied; 0 for a new replica. */
  appliedSequence(): number;
  /** Writes the records as they are and moves the applied sequence to `records.through`, atomically. */
  apply(records: ChangedRecords): void;
}
