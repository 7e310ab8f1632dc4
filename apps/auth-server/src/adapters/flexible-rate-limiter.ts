import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { Admission, RateLimiter } from '../ports/rate-limiters.ts';

const ALLOWED: Admission = { allowed: true };
const refused = (res: RateLimiterRes): Admission => ({
  allowed: false,
  retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
});

/** A limit of 0 means none: every request is admitted and nothing is kept. */
export const unlimited: RateLimiter = {
  consume: async () => ALLOWED,
  check: async () => ALLOWED,
  record: async () => false,
  reset: async () => {},
};

/**
 * The port over one rate-limiter-flexible limiter of `points` per window, in memory or in Redis.
 * Both count atomically and report the count this call brought the key to (the memory limiter
 * synchronously, Redis with one INCRBY in a script), so exactly one recorded event reaches the limit.
 * A failure of the limiter's store (Redis) rejects.
 */
export function flexibleRateLimiter(limiter: RateLimiterAbstract, points: number): RateLimiter {
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
      return res !== null && res.consumedPoints >= points ? refused(res) : ALLOWED;
    },
    async record(key) {
      const res = await limiter.penalty(key, 1);
      return res.consumedPoints === points;
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
