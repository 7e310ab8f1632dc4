import { connectRedis } from '@catalog/server-runtime';
import type { Logger } from 'pino';
import type { CatalogApiConfig } from '../config/config.ts';
import { InsuredRequestLimiter } from './insured-request-limiter.ts';
import { MemoryRequestLimiter } from './memory/memory-request-limiter.ts';
import { RedisRequestLimiter } from './redis/redis-request-limiter.ts';
import type { RequestLimiter } from './request-limiter.ts';

/**
 * The limiter the configuration names: shared through Redis when REDIS_URL is set (with the
 * in-process limits as insurance), in this process otherwise, or when every limit is off (nothing
 * to share, so no connection).
 */
export async function openRequestLimiter(input: {
  readonly config: Pick<CatalogApiConfig, 'rateLimits' | 'redis'>;
  readonly logger: Logger;
  /** Hears of each request decided in this process because Redis could not answer. */
  readonly onFallback: () => void;
}): Promise<RequestLimiter> {
  const { rateLimits, redis } = input.config;
  const local = new MemoryRequestLimiter(rateLimits);
  if (redis === undefined || (rateLimits.rps === 0 && rateLimits.ipPer5Min === 0)) return local;
  const shared = new RedisRequestLimiter({
    client: await connectRedis(redis.url),
    keyPrefix: redis.keyPrefix,
    limits: rateLimits,
  });
  return new InsuredRequestLimiter({
    shared,
    insurance: local,
    logger: input.logger,
    onFallback: input.onFallback,
  });
}
