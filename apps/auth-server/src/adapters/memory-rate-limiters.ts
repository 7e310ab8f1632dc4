import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimiterFactory } from '../ports/rate-limiters.ts';
import { flexibleRateLimiter, unlimited } from './flexible-rate-limiter.ts';

/**
 * Limiters in this process's memory (rate-limiter-flexible). A key's count lives exactly as long as
 * its window: nothing is forgotten early, however many other keys there are, so a flood on other
 * keys never clears a lock-out; the per-IP limits bound how many keys a caller can create.
 */
export const memoryRateLimiters: RateLimiterFactory = (name, limit) =>
  limit.points === 0
    ? unlimited
    : flexibleRateLimiter(
        new RateLimiterMemory({ keyPrefix: name, points: limit.points, duration: limit.windowSeconds }),
        limit.points,
      );
