import { connectRedis } from '@catalog/server-runtime';
import type { Logger } from 'pino';
import type { AuthServerConfig } from '../config/config.ts';
import { insuredRateLimiters } from '../limits/insured-rate-limiters.ts';
import type { RateLimiterFactory } from '../ports/rate-limiters.ts';
import type { SignIns } from '../ports/sign-ins.ts';
import { memoryRateLimiters } from './memory-rate-limiters.ts';
import { memorySignIns } from './memory-sign-ins.ts';
import { redisRateLimiters } from './redis/redis-rate-limiters.ts';
import { RedisSignIns } from './redis/redis-sign-ins.ts';

/** What several token servers of one deployment must share to behave as one. */
export interface SharedState {
  /** The rate limits and the login lock-out's failure counts. */
  readonly rateLimiters: RateLimiterFactory;
  /** oidc-provider's sign-ins in progress (every model but Client). */
  readonly signIns: SignIns;
  /** Releases the connection to Redis, if any. */
  close(): Promise<void>;
}

/**
 * The state the configuration names: in Redis when REDIS_URL is set, under
 * `{REDIS_KEY_PREFIX}auth:` (the catalog API's keys are beside it), with the in-process limiters as
 * insurance while Redis cannot answer; in this process otherwise. The connection fails fast and
 * reconnects in the background: an instance started while Redis is unreachable starts all the same.
 */
export async function openSharedState(input: {
  readonly config: Pick<AuthServerConfig, 'redis' | 'limits'>;
  readonly logger: Logger;
  /** Hears of each rate-limiter call decided in this process because Redis could not answer. */
  readonly onFallback: () => void;
}): Promise<SharedState> {
  const { redis, limits } = input.config;
  if (redis === undefined) {
    return {
      rateLimiters: memoryRateLimiters,
      signIns: memorySignIns(limits.signInCapacity),
      close: async () => {},
    };
  }
  const client = await connectRedis(redis.url);
  const keyPrefix = `${redis.keyPrefix}auth:`;
  return {
    rateLimiters: insuredRateLimiters({
      shared: redisRateLimiters(client, keyPrefix),
      insurance: memoryRateLimiters,
      logger: input.logger,
      onFallback: input.onFallback,
    }),
    signIns: new RedisSignIns({ client, keyPrefix, capacity: limits.signInCapacity }),
    close: async () => {
      client.disconnect();
    },
  };
}
