import type { ChangeFeed, ReplicaBuildProgress } from '@catalog/store';
import type { ReplicaPosition } from './replica-position.ts';
import type { ReplicaTarget, SnapshotLoadProgress } from './replica-target.ts';

export interface FeedFollowerOptions {
  /** How often the feed's head is read when nothing asked for fresher data (default 100 ms). */
  pollIntervalMs?: number;
  /** Feed entries read per batch (default 1,000). */
  batchSize?: number;
  /** Products per part of the snapshot a new replica is loaded from (default 5,000). */
  snapshotBatchSize?: number;
  /** A failed read or apply; the follower keeps polling. */
  onError?: (error: unknown) => void;
  /**
   * The first catch-up's progress: when it starts, when its phase changes, at most once every
   * `progressIntervalMs` between (default 5 s), and when it ends.
   */
  onProgress?: (progress: ReplicaBuildProgress) => void;
  progressIntervalMs?: number;
}

interface Waiter {
  sequence: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Keeps a replica at the source's change feed: reads the records the feed names after the
 * replica's position and applies them, one batch at a time, in feed order. A new replica that can
 * load a snapshot (ReplicaTarget.loadSnapshot) is first filled from one of the whole source, and
 * the feed is followed from the snapshot's position. Only one catch-up runs
 * at a time; whoever needs the replica at a given sequence (a search that must be complete) asks
 * with `waitFor`, which starts a catch-up at once instead of waiting for the next poll.
 */
export class FeedFollower implements ReplicaPosition {
  readonly #source: ChangeFeed;
  readonly #target: ReplicaTarget;
  readonly #pollIntervalMs: number;
  readonly #batchSize: number;
  readonly #snapshotBatchSize: number;
  readonly #onError: (error: unknown) => void;
  readonly #onProgress: (progress: ReplicaBuildProgress) => void;
  readonly #progressIntervalMs: number;
  #build: ReplicaBuildProgress | null = null;
  #phaseStarted = { at: 0, products: 0 };
  #lastReport = 0;
  readonly #waiters = new Set<Waiter>();
  #catchingUp: Promise<void> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  /**
   * The target's applied sequence as last read or moved by this follower, its only writer: the
   * position is answered without a call to the target, which may be a worker or a network away.
   */
  #applied = 0;

  constructor(source: ChangeFeed, target: ReplicaTarget, options: FeedFollowerOptions = {}) {
    this.#source = source;
    this.#target = target;
    this.#pollIntervalMs = options.pollIntervalMs ?? 100;
    this.#batchSize = options.batchSize ?? 1000;
    this.#snapshotBatchSize = options.snapshotBatchSize ?? 5000;
    this.#onError = options.onError ?? (() => undefined);
    this.#onProgress = options.onProgress ?? (() => undefined);
    this.#progressIntervalMs = options.progressIntervalMs ?? 5000;
  }

  appliedSequence(): number {
    return this.#applied;
  }

  /** Reads the target's position; a waiter it already satisfies need not wait for the next apply. */
  async #readApplied(): Promise<number> {
    this.#applied = await this.#target.appliedSequence();
    this.#settleWaiters();
    return this.#applied;
  }

  /** Whether the first catch-up has completed: before it, the replica cannot answer a complete search. */
  get built(): boolean {
    return this.#build?.state === 'built';
  }

  /** The first catch-up's progress; null before it starts. */
  buildProgress(): ReplicaBuildProgress | null {
    return this.#build === null ? null : { ...this.#build };
  }

  #progress(phase: ReplicaBuildProgress['phase'], applied: number, total: number | null): void {
    const build = this.#build;
    if (build === null || build.state === 'built') return;
    // The pace from a monotonic clock of sub-millisecond resolution: a phase's parts can be that quick.
    const now = performance.now();
    const changed = build.phase !== phase;
    if (changed) this.#phaseStarted = { at: now, products: applied };
    const seconds = (now - this.#phaseStarted.at) / 1000;
    const done = applied - this.#phaseStarted.products;
    const rate = seconds > 0 && done > 0 ? done / seconds : null;
    Object.assign(build, {
      phase,
      unit: phase === 'feed' ? 'feed entries' : 'products',
      applied,
      total,
      perSecond: rate === null ? null : Math.max(1, Math.round(rate)),
      expectedEndAt:
        rate === null || total === null
          ? null
          : new Date(Date.now() + ((total - applied) / rate) * 1000).toISOString(),
    });
    if (changed || now - this.#lastReport >= this.#progressIntervalMs) this.#report(now);
  }

  #report(now: number): void {
    this.#lastReport = now;
    if (this.#build !== null) this.#onProgress({ ...this.#build });
  }

  #snapshotProgress = (progress: SnapshotLoadProgress): void => {
    this.#progress(
      progress.phase === 'loading' ? 'snapshot-loading' : 'snapshot-indexing',
      progress.products,
      progress.total,
    );
  };

  /** Applies everything committed before the call; rejects with the first failure. */
  catchUp(): Promise<void> {
    if (this.#catchingUp !== null) {
      // A catch-up in progress may have read the head before the caller's write: run once more.
      this.#again = true;
      return this.#catchingUp;
    }
    this.#catchingUp = this.#run().finally(() => {
      this.#catchingUp = null;
    });
    return this.#catchingUp;
  }

  async #run(): Promise<void> {
    if (this.#build === null) {
      const applied = await this.#readApplied();
      const now = performance.now();
      this.#build = {
        state: 'building',
        phase: 'feed',
        startedAt: new Date().toISOString(),
        unit: 'feed entries',
        applied,
        total: null,
        perSecond: null,
        expectedEndAt: null,
      };
      this.#phaseStarted = { at: now, products: applied };
      this.#report(now);
    }
    await this.#follow();
    if (this.#build.state === 'building') {
      Object.assign(this.#build, { state: 'built', phase: 'done', expectedEndAt: null });
      this.#report(performance.now());
    }
  }

  async #follow(): Promise<void> {
    do {
      this.#again = false;
      for (;;) {
        const applied = await this.#readApplied();
        // A poll that finds nothing new costs one indexed row, not a snapshot of reads.
        if ((await this.#source.head()) <= applied) break;
        if (applied === 0 && this.#target.loadSnapshot !== undefined) {
          // A new replica: the whole source at once, then the feed from where the snapshot stood.
          try {
            await this.#target.loadSnapshot(
              this.#source.readSnapshot(this.#snapshotBatchSize),
              this.#snapshotProgress,
            );
          } catch (error) {
            // The load is undone whole: the next attempt starts from nothing, a phase of its own.
            if (this.#build?.state === 'building') this.#build.phase = 'feed';
            throw error;
          }
          await this.#readApplied();
          continue;
        }
        const records = await this.#source.readRecords(applied, this.#batchSize);
        if (records.through > applied) {
          await this.#target.apply(records);
          this.#applied = records.through;
          this.#settleWaiters();
          if (!this.built) this.#progress('feed', records.through, records.head);
        }
        if (records.through >= records.head) break;
      }
    } while (this.#again && !this.#stopped);
  }

  /** Polls until `stop`. */
  start(): void {
    const tick = () => {
      if (this.#stopped) return;
      this.catchUp()
        .catch((error: unknown) => this.#onError(error))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(tick, this.#pollIntervalMs);
        });
    };
    tick();
  }

  /** Resolves true once the replica has applied `sequence`, false if `timeoutMs` passes first. */
  waitFor(sequence: number, timeoutMs: number): Promise<boolean> {
    if (this.#applied >= sequence) return Promise.resolve(true);
    const reached = new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        sequence,
        resolve,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
    this.catchUp().catch((error: unknown) => this.#onError(error));
    return reached;
  }

  #settleWaiters(): void {
    const applied = this.#applied;
    for (const waiter of this.#waiters) {
      if (waiter.sequence > applied) continue;
      clearTimeout(waiter.timer);
      this.#waiters.delete(waiter);
      waiter.resolve(true);
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const waiter of this.#waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.#waiters.clear();
    await this.#catchingUp?.catch(() => undefined);
  }
}
