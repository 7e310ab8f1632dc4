import type { Logger } from 'pino';
import type { RateLimiter, RateLimiterFactory } from '../ports/rate-limiters.ts';

/** While Redis is out, it is asked again after this long, by one call. */
const REDIS_RECHECK_MS = 1000;

/**
 * Whether the shared limiters' store is out, for every limiter of the process at once: one warning
 * when an outage starts, one line when Redis answers again, however many limiters there are.
 */
class SharedLimitsOutage {
  readonly #logger: Logger;
  readonly #onFallback: () => void;
  readonly #now: () => number;
  #outage = false;
  #lastAttempt = Number.NEGATIVE_INFINITY;

  constructor(logger: Logger, onFallback: () => void, now: () => number) {
    this.#logger = logger;
    this.#onFallback = onFallback;
    this.#now = now;
  }

  async decide<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    const now = this.#now();
    if (this.#outage && now - this.#lastAttempt < REDIS_RECHECK_MS) return this.#fallBack(local);
    this.#lastAttempt = now;
    let result: T;
    try {
      result = await shared();
    } catch (error) {
      if (!this.#outage) {
        this.#outage = true;
        this.#logger.warn(
          { err: error },
          'rate limits: Redis cannot answer; each token server enforces the limits and lock-outs on its own until it does',
        );
      }
      return this.#fallBack(local);
    }
    if (this.#outage) {
      this.#outage = false;
      this.#logger.info('rate limits: Redis answers again; the limits and lock-outs are shared again');
    }
    return result;
  }

  #fallBack<T>(local: () => Promise<T>): Promise<T> {
    this.#onFallback();
    return local();
  }
}

/**
 * The shared limiters with this process's own as insurance. When Redis cannot answer (down,
 * unreachable, slower than its command time-out), the call is decided by the in-process limiter of
 * the same purpose: callers never get a 5xx for it and the limits never lapse, though each instance
 * then counts on its own (N instances admit up to N times the limits, and a lock-out engaged
 * through Redis is not seen until it answers again). `onFallback` hears of each call decided
 * locally (the metric). During an outage one call per REDIS_RECHECK_MS tries Redis, so a Redis that
 * hangs delays one call a second by the command time-out instead of every call.
 */
export function insuredRateLimiters(input: {
  readonly shared: RateLimiterFactory;
  readonly insurance: RateLimiterFactory;
  readonly logger: Logger;
  readonly onFallback: () => void;
  readonly now?: () => number;
}): RateLimiterFactory {
  const outage = new SharedLimitsOutage(input.logger, input.onFallback, input.now ?? Date.now);
  return (name, limit): RateLimiter => {
    const shared = input.shared(name, limit);
    const local = input.insurance(name, limit);
    return {
      consume: (key) =>
        outage.decide(
          () => shared.consume(key),
          () => local.consume(key),
        ),
      check: (key) =>
        outage.decide(
          () => shared.check(key),
          () => local.check(key),
        ),
      record: (key) =>
        outage.decide(
          () => shared.record(key),
          () => local.record(key),
        ),
      reset: (key) =>
        outage.decide(
          () => shared.reset(key),
          () => local.reset(key),
        ),
    };
  };
}
