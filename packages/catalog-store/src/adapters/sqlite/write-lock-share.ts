/**
 * How long a background writer (the webhook outbox) waits before its next write transaction so that
 * it holds SQLite's one write lock at most `share` of the time while others write: after a
 * transaction that took t, t × (1 / share − 1). Alone on the file it never waits.
 */
export class WriteLockShare {
  readonly #restFactor: number;
  #restUntil = Number.NEGATIVE_INFINITY;

  constructor(share: number) {
    if (!(share > 0 && share <= 1)) throw new RangeError(`a write lock share is in (0, 1], not ${share}`);
    this.#restFactor = 1 / share - 1;
  }

  /** Milliseconds to wait at `now` before the next transaction; none when nobody else wrote since the last. */
  restBefore(now: number, othersWrote: boolean): number {
    return othersWrote ? Math.max(0, this.#restUntil - now) : 0;
  }

  /** Records a transaction of this writer's, from `startedAt` to `endedAt`. */
  held(startedAt: number, endedAt: number): void {
    this.#restUntil = endedAt + (endedAt - startedAt) * this.#restFactor;
  }
}
