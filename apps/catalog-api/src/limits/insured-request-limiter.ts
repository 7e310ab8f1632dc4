import { RedisOutage } from '@catalog/server-runtime';
import type { Logger } from 'pino';
import type { LimitVerdict, RequestLimiter } from './request-limiter.ts';

const OUTAGE_MESSAGES = {
  down: 'rate limits: Redis cannot answer; each instance enforces the limits on its own until it does',
  back: 'rate limits: Redis answers again; the limits are shared again',
};

/**
 * The shared limiter with this process's own as insurance (RedisOutage: one warning per outage,
 * Redis retried once a second). While the shared one cannot answer, the request is decided by the
 * in-process limits, so each instance enforces them on its own (N instances admit up to N times the
 * limits); `onFallback` hears of each request decided locally (the metric).
 */
export class InsuredRequestLimiter implements RequestLimiter {
  readonly #shared: RequestLimiter;
  readonly #insurance: RequestLimiter;
  readonly #outage: RedisOutage;

  constructor(options: {
    readonly shared: RequestLimiter;
    readonly insurance: RequestLimiter;
    readonly logger: Logger;
    readonly onFallback: () => void;
    readonly now?: () => number;
  }) {
    this.#shared = options.shared;
    this.#insurance = options.insurance;
    this.#outage = new RedisOutage({
      logger: options.logger,
      onFallback: options.onFallback,
      messages: OUTAGE_MESSAGES,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
  }

  admit(address: string): Promise<LimitVerdict> {
    return this.#outage.decide(
      () => this.#shared.admit(address),
      () => this.#insurance.admit(address),
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.#shared.close(), this.#insurance.close()]);
  }
}
