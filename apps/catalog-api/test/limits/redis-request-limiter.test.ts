import { connectRedis } from '@catalog/server-runtime';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import type { RateLimitConfig } from '../../src/config/config.ts';
import { RedisRequestLimiter } from '../../src/limits/redis/redis-request-limiter.ts';
import { testKeyPrefix } from '../support/limited-api.ts';
import { requestLimiterContract } from './request-limiter.contract.ts';

requestLimiterContract('Redis', async (limits, now) => {
  const client = await connectRedis(inject('redisUrl'));
  return new RedisRequestLimiter({ client, keyPrefix: testKeyPrefix(), limits, now });
});

describe('RedisRequestLimiter', () => {
  const limits: RateLimitConfig = { rps: 5, burst: 10, ipPer5Min: 4, ipWindowMs: 300_000 };
  const opened: RedisRequestLimiter[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((limiter) => limiter.close()));
  });

  async function open(keyPrefix: string, now: () => number = Date.now) {
    const client = await connectRedis(inject('redisUrl'));
    const limiter = new RedisRequestLimiter({ client, keyPrefix, limits, now });
    opened.push(limiter);
    return { client, limiter };
  }

  it('decides a request in one command to Redis, the address window and the throttle together', async () => {
    const { client, limiter } = await open(testKeyPrefix());
    // The first call may also have to hand Redis the script (NOSCRIPT, then EVAL): not counted.
    await limiter.admit('203.0.113.7');
    const sent = vi.spyOn(client as Redis, 'sendCommand');
    for (let i = 0; i < 8; i += 1) await limiter.admit(`198.51.100.${i % 2}`);
    expect(sent.mock.calls.map(([command]) => command.name)).toEqual(Array(8).fill('evalsha'));
  });

  it('shares one window per address and one throttle between limiters on the same prefix', async () => {
    const prefix = testKeyPrefix();
    const clock = { now: 1_000_000 };
    const instances = [await open(prefix, () => clock.now), await open(prefix, () => clock.now)];
    const admissions: (boolean | undefined)[] = [];
    for (let i = 0; i < 6; i += 1) {
      admissions.push((await instances[i % 2]?.limiter.admit('203.0.113.7'))?.admitted);
    }
    expect(admissions).toEqual([true, true, true, true, false, false]);
    let admitted = 0;
    for (let i = 0; i < 12; i += 1) {
      if ((await instances[i % 2]?.limiter.admit(`198.51.100.${i}`))?.admitted) admitted += 1;
    }
    // Ten a second with the burst, four of them already taken by 203.0.113.7.
    expect(admitted).toBe(6);
  });

  it("keeps nothing in Redis beyond its window: an address's counts and the throttle's expire", async () => {
    const prefix = testKeyPrefix();
    const { client, limiter } = await open(prefix);
    await limiter.admit('203.0.113.7');
    const addressTtl = await client.pttl(`${prefix}limits:ip:203.0.113.7`);
    const throttleTtl = await client.pttl(`${prefix}limits:gateway`);
    expect(addressTtl).toBeGreaterThan(0);
    expect(addressTtl).toBeLessThanOrEqual(300_000);
    expect(throttleTtl).toBeGreaterThan(0);
    expect(throttleTtl).toBeLessThanOrEqual(60_000);
  });
});
