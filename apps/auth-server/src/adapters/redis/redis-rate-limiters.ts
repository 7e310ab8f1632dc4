import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterFactory } from '../../ports/rate-limiters.ts';
import { flexibleRateLimiter, unlimited } from '../flexible-rate-limiter.ts';

/**
 * Limiters in Redis, shared by every token server that names the same server and key prefix:
 * rate-limiter-flexible's RateLimiterRedis, one script (EVALSHA: SET NX, INCRBY, PTTL) per counted
 * request, so instances counting at the same moment each see their own count. A key is
 * `{keyPrefix}limits:{name}:{key}` and expires with its window. Redis failing (down, slower than the
 * client's command time-out) rejects: InsuredRateLimiters decides what happens then.
 */
export function redisRateLimiters(client: Redis, keyPrefix: string): RateLimiterFactory {
  return (name, limit) =>
    limit.points === 0
      ? unlimited
      : flexibleRateLimiter(
          new RateLimiterRedis({
            storeClient: client,
            keyPrefix: `${keyPrefix}limits:${name}`,
            points: limit.points,
            duration: limit.windowSeconds,
          }),
          limit.points,
        );
}
