import type { Logger } from 'pino';

/** While Redis is out, it is asked again after this long, by one call. */
const REDIS_RECHECK_MS = 1000;

/** The two lines an outage logs: a warning when it starts, and one when Redis answers again. */
export interface RedisOutageMessages {
  readonly down: string;
  readonly back: string;
}

/**
 * Whether Redis, where instances share their limits, is out for this process, and the decision of
 * each call meanwhile. A call Redis cannot answer (down, unreachable, slower than its command
 * time-out) is decided by `local` instead, so callers never get a 5xx for it and the limits never
 * lapse; `onFallback` hears of each call so decided (the metric). One warning when an outage
 * starts and one line when Redis answers again, however many limiters share this state. During an
 * outage one call per REDIS_RECHECK_MS tries Redis, so a Redis that hangs delays one call a second
 * by the command time-out instead of every call. Only a call made since the last change of state can
 * change it again: calls in flight when the state changed answer late, and a late success must not
 * end the outage that a later failure started (nor a late failure start a new one), or one outage
 * would log its warning twice.
 */
export class RedisOutage {
  readonly #logger: Logger;
  readonly #onFallback: () => void;
  readonly #messages: RedisOutageMessages;
  readonly #now: () => number;
  #outage = false;
  #lastAttempt = Number.NEGATIVE_INFINITY;
  #changes = 0;

  constructor(options: {
    readonly logger: Logger;
    readonly onFallback: () => void;
    readonly messages: RedisOutageMessages;
    readonly now?: () => number;
  }) {
    this.#logger = options.logger;
    this.#onFallback = options.onFallback;
    this.#messages = options.messages;
    this.#now = options.now ?? Date.now;
  }

  async decide<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    const now = this.#now();
    if (this.#outage && now - this.#lastAttempt < REDIS_RECHECK_MS) return this.#fallBack(local);
    this.#lastAttempt = now;
    const changesBefore = this.#changes;
    let result: T;
    try {
      result = await shared();
    } catch (error) {
      if (!this.#outage && this.#changes === changesBefore) {
        this.#change(true);
        this.#logger.warn({ err: error }, this.#messages.down);
      }
      return this.#fallBack(local);
    }
    if (this.#outage && this.#changes === changesBefore) {
      this.#change(false);
      this.#logger.info(this.#messages.back);
    }
    return result;
  }

  #change(outage: boolean): void {
    this.#outage = outage;
    this.#changes += 1;
  }

  #fallBack<T>(local: () => Promise<T>): Promise<T> {
    this.#onFallback();
    return local();
  }
}
