import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Admission, RateLimiter, RateLimiterFactory } from '../ports/rate-limiters.ts';

const ALLOWED: Admission = { allowed: true };
const refused = (res: RateLimiterRes): Admission => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
});

/** A limit of 0 means none: every request is admitted and nothing is kept. */
const unlimited: RateLimiter = {
  consume: async () => ALLOWED,
  check: async () => ALLOWED,
  record: async () => false,
  reset: async () => {},
};

/**
 * Limiters in this process's memory (rate-limiter-flexible). A key's count lives exactly as long as
 * its window: nothing is forgotten early, however many other keys there are, so a flood on other
 * keys never clears a lock-out; the per-IP limits bound how many keys a caller can create.
 */
export const memoryRateLimiters: RateLimiterFactory = (name, limit) => {
  if (limit.points === 0) return unlimited;
  const limiter = new RateLimiterMemory({
    keyPrefix: name,
    points: limit.points,
    duration: limit.windowSeconds,
  });
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return ALLOWED;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return refused(rejection);
        throw rejection;
      }
    },
    async check(key) {
      const res = await limiter.get(key);
      return res !== null && res.consumedPoints >= limit.points ? refused(res) : ALLOWED;
    },
    async record(key) {
      // The memory limiter counts synchronously: one event alone reaches the limit exactly.
      const res = await limiter.penalty(key, 1);
      return res.consumedPoints === limit.points;
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
};
