// Client-side pacing (spec 8): a token bucket under the gateway's 50 req/s and a sliding window under the
// per-IP 1,000 requests per 5 minutes, so a full sync never meets a 429.
import { sleep } from './backoff.ts';

/** Anything that can delay a request until it may be sent. Share one instance to share the budget. */
export interface RequestPacer {
  /** Resolves when the next request may go out; returns the time waited in ms. */
  acquire(signal?: AbortSignal): Promise<number>;
}

export interface PacerOptions {
  /**
   * Sustained requests per second (default 45: under the gateway's 50 with room for timing jitter, so no
   * fixed one-second window of the server ever sees more than 50; 0 turns the bucket off).
   */
  readonly requestsPerSecond?: number;
  /** Bucket size (default 1: requests evenly spaced, no burst). */
  readonly burst?: number;
  /** Requests allowed in any rolling window (default 1,000; 0 turns the window off). */
  readonly windowRequests?: number;
  /** Length of the rolling window in ms (default 300 000 = 5 minutes). */
  readonly windowMs?: number;
  /**
   * Extra wait before a request leaves the rolling window (default 1 000 ms): the server's window starts
   * when the first request arrives, a little after it was sent.
   */
  readonly windowMarginMs?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

export const DEFAULT_PACING = Object.freeze({
  requestsPerSecond: 45,
  windowRequests: 1000,
  windowMs: 300_000,
});

/** The in-process pacer. Requests are served in arrival order. */
export function createPacer(options: PacerOptions = {}): RequestPacer {
  const rps = options.requestsPerSecond ?? DEFAULT_PACING.requestsPerSecond;
  const burst = Math.max(1, options.burst ?? 1);
  const windowRequests = options.windowRequests ?? DEFAULT_PACING.windowRequests;
  const windowMs = (options.windowMs ?? DEFAULT_PACING.windowMs) + (options.windowMarginMs ?? 1000);
  const now = options.now ?? Date.now;
  let tokens = burst;
  let refilledAt = now();
  const sent: number[] = [];
  let queue: Promise<unknown> = Promise.resolve();

  const delayNeeded = (): number => {
    const at = now();
    let wait = 0;
    if (rps > 0) {
      tokens = Math.min(burst, tokens + ((at - refilledAt) / 1000) * rps);
      refilledAt = at;
      if (tokens < 1) wait = Math.ceil(((1 - tokens) / rps) * 1000);
    }
    if (windowRequests > 0) {
      while (sent.length > 0 && (sent[0] ?? 0) <= at - windowMs) sent.shift();
      if (sent.length >= windowRequests) wait = Math.max(wait, (sent[0] ?? at) + windowMs - at + 1);
    }
    return wait;
  };

  const take = async (signal?: AbortSignal): Promise<number> => {
    let waited = 0;
    for (let wait = delayNeeded(); wait > 0; wait = delayNeeded()) {
      await sleep(wait, signal);
      waited += wait;
    }
    if (rps > 0) tokens -= 1;
    if (windowRequests > 0) sent.push(now());
    return waited;
  };

  return {
    acquire(signal) {
      const turn = queue.then(() => take(signal));
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

/** A pacer that never waits (limits off, for loopback benchmarks). */
export const noPacing: RequestPacer = { acquire: async () => 0 };
