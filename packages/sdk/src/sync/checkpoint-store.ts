// What the sync runner keeps between passes (spec 4.4 steps 3–4): the committed checkpoint, and apart
// from it the cursor of a pass in progress, so a crashed pass resumes where it stopped.

/** The pass in progress, saved after every page that was upserted. */
export interface SyncProgress {
  /** The `updatedAfter` of the pass (the checkpoint it started from, or the epoch). */
  readonly updatedAfter: string;
  /** The checkpoint this pass commits when it ends cleanly: captured before it started, minus the overlap. */
  readonly nextCheckpoint: string;
  /** The cursor of the next page. */
  readonly syncToken: string;
  readonly pageSize: number;
  readonly savedAt: string;
}

export interface SyncState {
  /** The last committed checkpoint (ISO 8601), null before the first clean pass. */
  readonly checkpoint: string | null;
  readonly progress: SyncProgress | null;
}

/**
 * Storage of the sync state. Implement it over any durable medium (a file, a database row, a key in a
 * key-value store). Rules an implementation must keep:
 * - `commit` writes the checkpoint and clears the progress in one atomic step;
 * - `saveProgress` never changes the committed checkpoint;
 * - a `load` after a crash returns either the old or the new state, never a torn one.
 */
export interface CheckpointStore {
  load(): Promise<SyncState>;
  saveProgress(progress: SyncProgress): Promise<void>;
  clearProgress(): Promise<void>;
  commit(checkpoint: string): Promise<void>;
}

export const EMPTY_SYNC_STATE: SyncState = Object.freeze({ checkpoint: null, progress: null });
