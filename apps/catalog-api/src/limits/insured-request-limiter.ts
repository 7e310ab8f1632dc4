import type { Logger } from 'pino';
import type { LimitVerdict, RequestLimiter } from './request-limiter.ts';

/** While Redis is out, it is asked again after this long, by one request. */
const REDIS_RECHECK_MS = 1000;

/**
 * The shared limiter with this process's own as insurance. When the shared one cannot answer (Redis
 * down, unreachable or slower than its command time-out), the request is decided by the in-process
 * limits: callers never get a 5xx for it and the limits never lapse, though each instance then
 * enforces them on its own (N instances admit up to N times the limits). One warning when an outage
 * starts, one line when Redis answers again, and `onFallback` for each request decided locally
 * (the metric). During an outage one request per REDIS_RECHECK_MS tries Redis, so a Redis that
 * hangs delays one request a second by the command time-out instead of every request.
 */
export class InsuredRequestLimiter implements RequestLimiter {
  readonly #shared: RequestLimiter;
  readonly #insurance: RequestLimiter;
  readonly #logger: Logger;
  readonly #onFallback: () => void;
  readonly #now: () => number;
  #outage = false;
  #lastAttempt = Number.NEGATIVE_INFINITY;

  constructor(options: {
    readonly shared: RequestLimiter;
    readonly insurance: RequestLimiter;
    readonly logger: Logger;
    readonly onFallback: () => void;
    readonly now?: () => number;
  }) {
    this.#shared = options.shared;
    this.#insurance = options.insurance;
    this.#logger = options.logger;
    this.#onFallback = options.onFallback;
    this.#now = options.now ?? Date.now;
  }

  async admit(address: string): Promise<LimitVerdict> {
    const now = this.#now();
    if (this.#outage && now - this.#lastAttempt < REDIS_RECHECK_MS) return this.#decideLocally(address);
    this.#lastAttempt = now;
    let verdict: LimitVerdict;
    try {
      verdict = await this.#shared.admit(address);
    } catch (error) {
      if (!this.#outage) {
        this.#outage = true;
        this.#logger.warn(
          { err: error },
          'rate limits: Redis cannot answer; each instance enforces the limits on its own until it does',
        );
      }
      return this.#decideLocally(address);
    }
    if (this.#outage) {
      this.#outage = false;
      this.#logger.info('rate limits: Redis answers again; the limits are shared again');
    }
    return verdict;
  }

  async close(): Promise<void> {
    await Promise.all([this.#shared.close(), this.#insurance.close()]);
  }

  #decideLocally(address: string): Promise<LimitVerdict> {
    this.#onFallback();
    return this.#insurance.admit(address);
  }
}
