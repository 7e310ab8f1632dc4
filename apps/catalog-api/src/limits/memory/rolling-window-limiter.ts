import { WINDOW_SLICES } from '../limit-rules.ts';

/**
 * Requests per key in any rolling window (spec 8: "about 1,000 requests in any rolling 5-minute
 * window, until the window clears"). rate-limiter-flexible only counts fixed windows, which let an
 * address send twice the limit across a window boundary. Counts are kept in `slots` slices of the
 * window, so the counted span is between (slots − 1) and slots slices long: with 30 slices of a
 * 5-minute window, 290–300 s. `check` and `record` are separate so that the caller counts only the
 * requests it admits (see RequestLimiter).
 */
export type Admission =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterMs: number };

interface KeyWindow {
  /** Requests per slice, indexed by absolute slice number modulo the slice count. */
  readonly counts: number[];
  /** Absolute number of the newest slice these counts describe. */
  newest: number;
  total: number;
}

export class RollingWindowLimiter {
  readonly #limit: number;
  readonly #slots: number;
  readonly #sliceMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, KeyWindow>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: { limit: number; windowMs: number; slots?: number; now?: () => number }) {
    this.#limit = options.limit;
    this.#slots = options.slots ?? WINDOW_SLICES;
    this.#sliceMs = options.windowMs / this.#slots;
    this.#now = options.now ?? Date.now;
    // Forget keys that have been quiet for a whole window, so memory follows active callers only.
    this.#sweeper = setInterval(() => this.#forgetQuiet(), options.windowMs).unref();
  }

  /** Whether the key may send one more request now, without counting it. */
  check(key: string): Admission {
    const now = this.#now();
    const slice = Math.floor(now / this.#sliceMs);
    const window = this.#advance(key, slice);
    if (window.total < this.#limit) return { allowed: true };
    // The caller gets in once enough of its oldest slices have left the window.
    let leaving = 0;
    for (let past = slice - this.#slots + 1; past <= slice; past += 1) {
      leaving += window.counts[past % this.#slots] ?? 0;
      if (window.total - leaving < this.#limit) {
        return { allowed: false, retryAfterMs: Math.max(1, (past + this.#slots) * this.#sliceMs - now) };
      }
    }
    return { allowed: false, retryAfterMs: this.#slots * this.#sliceMs };
  }

  /** Counts one admitted request for the key. */
  record(key: string): void {
    const slice = Math.floor(this.#now() / this.#sliceMs);
    const window = this.#advance(key, slice);
    window.counts[slice % this.#slots] = (window.counts[slice % this.#slots] ?? 0) + 1;
    window.total += 1;
  }

  stop(): void {
    clearInterval(this.#sweeper);
  }

  #advance(key: string, slice: number): KeyWindow {
    let window = this.#windows.get(key);
    if (window === undefined) {
      window = { counts: new Array<number>(this.#slots).fill(0), newest: slice, total: 0 };
      this.#windows.set(key, window);
      return window;
    }
    const elapsed = slice - window.newest;
    if (elapsed >= this.#slots) {
      window.counts.fill(0);
      window.total = 0;
    } else {
      for (let next = window.newest + 1; next <= slice; next += 1) {
        window.total -= window.counts[next % this.#slots] ?? 0;
        window.counts[next % this.#slots] = 0;
      }
    }
    if (elapsed > 0) window.newest = slice;
    return window;
  }

  #forgetQuiet(): void {
    const slice = Math.floor(this.#now() / this.#sliceMs);
    for (const [key, window] of this.#windows) {
      if (slice - window.newest >= this.#slots) this.#windows.delete(key);
    }
  }
}
