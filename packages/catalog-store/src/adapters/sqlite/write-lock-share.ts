/**
 * The share of the lock taken when nobody else committed since the last transaction: half, so that
 * a waiting writer gets in.
 */
const ALONE_SHARE = 0.5;
/** The longest rest: a transaction stalled inside (a page read from a cold disk) rests no longer. */
const MAX_REST_MS = 2_000;

/**
 * How long a background writer (the webhook outbox) waits before its next write transaction so that
 * it holds SQLite's one write lock at most `share` of the time while others write: after a
 * transaction that held the lock for t, t × (1 / share − 1), at most two seconds. Only the hold
 * counts: the wait for the lock and the reads before it leave the lock to the others, and counting
 * them made the rests longer than the share asks (a round that waited out a writer's transaction
 * rested for that wait too).
 *
 * When nobody else has committed since its last transaction, the writer still waits as long as
 * that transaction took (half the lock): a writer waiting for the lock has committed nothing yet,
 * and SQLite's busy handler polls the lock with sleeps of up to 100 ms, so transactions back to
 * back with no gap between them would starve it until its busy timeout runs out.
 */
export class WriteLockShare {
  readonly #restFactor: number;
  readonly #aloneRestFactor: number;
  #restUntil = Number.NEGATIVE_INFINITY;
  #aloneRestUntil = Number.NEGATIVE_INFINITY;

  constructor(share: number) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`a write lock share is in (0, 1], not ${share}`);
    this.#restFactor = 1 / share - 1;
    this.#aloneRestFactor = Math.min(this.#restFactor, 1 / ALONE_SHARE - 1);
  }

  /** Milliseconds to wait at `now` before the next transaction, told whether others committed since the last. */
  restBefore(now: number, othersWrote: boolean): number {
    return Math.max(0, (othersWrote ? this.#restUntil : this.#aloneRestUntil) - now);
  }

  /** Records a transaction of this writer's that ended at `endedAt` after holding the lock `heldMs`. */
  held(endedAt: number, heldMs: number): void {
    this.#restUntil = endedAt + Math.min(heldMs * this.#restFactor, MAX_REST_MS);
    this.#aloneRestUntil = endedAt + Math.min(heldMs * this.#aloneRestFactor, MAX_REST_MS);
  }
}
