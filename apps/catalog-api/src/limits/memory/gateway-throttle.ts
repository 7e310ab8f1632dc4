import { BURST_WINDOW_MS, GATEWAY_WINDOW_MS } from '../limit-rules.ts';
import type { Admission } from './rolling-window-limiter.ts';

/**
 * The throttle every caller shares (spec 8: 50 requests/second sustained, 100 burst): `rps` per
 * one-second window, and once those are used, up to `burst − rps` more per minute. Each window
 * starts with its first request, as rate-limiter-flexible's do, so a burst is never refilled by a
 * clock boundary falling inside it.
 */
export class GatewayThrottle {
  readonly #rps: number;
  readonly #burstExtra: number;
  readonly #now: () => number;
  #start = Number.NEGATIVE_INFINITY;
  #count = 0;
  #burstStart = Number.NEGATIVE_INFINITY;
  #burstCount = 0;

  constructor(options: { rps: number; burst: number; now?: () => number }) {
    this.#rps = options.rps;
    this.#burstExtra = Math.max(0, options.burst - options.rps);
    this.#now = options.now ?? Date.now;
  }

  /** Counts the request when the sustained rate or the burst allowance has room for it. */
  take(): Admission {
    const now = this.#now();
    if (now >= this.#start + GATEWAY_WINDOW_MS) {
      this.#start = now;
      this.#count = 0;
    }
    if (this.#count < this.#rps) {
      this.#count += 1;
      return { allowed: true };
    }
    if (now >= this.#burstStart + BURST_WINDOW_MS) {
      this.#burstStart = now;
      this.#burstCount = 0;
    }
    if (this.#burstCount < this.#burstExtra) {
      this.#burstCount += 1;
      return { allowed: true };
    }
    // The next sustained window is the earliest any request gets through; a clock read behind the
    // window's start (the Redis adapter's callers) must not make that more than a window away.
    const untilNextWindow = this.#start + GATEWAY_WINDOW_MS - now;
    return { allowed: false, retryAfterMs: Math.min(GATEWAY_WINDOW_MS, Math.max(1, untilNextWindow)) };
  }
}
