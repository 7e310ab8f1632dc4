/**
 * How far a replica has followed the records' change feed, as a search needs to know it: what
 * `replicatedSearch` takes, so it does not depend on how the replica is fed.
 */
export interface ReplicaPosition {
  /** The last feed sequence the replica is known to have applied (0 before anything is known). */
  appliedSequence(): number;
  /** Resolves true once the replica has applied `sequence`, false if `timeoutMs` passes first. */
  waitFor(sequence: number, timeoutMs: number): Promise<boolean>;
  /** Whether the first catch-up has completed: before it, the replica cannot answer a complete search. */
  readonly built: boolean;
}
