import { RedisOutage } from '@catalog/server-runtime';
import type { Logger } from 'pino';
import type { RateLimiter, RateLimiterFactory } from '../ports/rate-limiters.ts';

const OUTAGE_MESSAGES = {
  down: 'rate limits: Redis cannot answer; each token server enforces the limits and lock-outs on its own until it does',
  back: 'rate limits: Redis answers again; the limits and lock-outs are shared again',
};

/**
 * The shared limiters with this process's own as insurance, every limiter of the process behind one
 * outage state (RedisOutage: one warning per outage, Redis retried once a second). While Redis
 * cannot answer, a call is decided by the in-process limiter of the same purpose, so each instance
 * counts on its own (N instances admit up to N times the limits, and a lock-out engaged through
 * Redis is not seen until it answers again). `onFallback` hears of each call decided locally.
 */
export function insuredRateLimiters(input: {
  readonly shared: RateLimiterFactory;
  readonly insurance: RateLimiterFactory;
  readonly logger: Logger;
  readonly onFallback: () => void;
  readonly now?: () => number;
}): RateLimiterFactory {
  const outage = new RedisOutage({
    logger: input.logger,
    onFallback: input.onFallback,
    messages: OUTAGE_MESSAGES,
    ...(input.now === undefined ? {} : { now: input.now }),
  });
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
