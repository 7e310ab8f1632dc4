import { connectRedis } from '@catalog/server-runtime';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { memoryRateLimiters } from '../src/adapters/memory-rate-limiters.ts';
import { redisRateLimiters } from '../src/adapters/redis/redis-rate-limiters.ts';
import { rateLimiterContract } from './rate-limiter.contract.ts';
import { testKeyPrefix } from './support/redis-prefix.ts';

rateLimiterContract('memory', async () => ({ make: memoryRateLimiters, close: async () => {} }));

rateLimiterContract('Redis', async () => {
  const client = await connectRedis(inject('redisUrl'));
  return { make: redisRateLimiters(client, testKeyPrefix()), close: async () => client.disconnect() };
});

describe('Redis rate limiters: one count per key for every token server on the same prefix', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  const connect = async () => {
    const client = await connectRedis(inject('redisUrl'));
    clients.push(client);
    return client;
  };

  it("counts two instances' requests for a key together", async () => {
    const prefix = testKeyPrefix();
    const limit = { points: 4, windowSeconds: 60 };
    const instances = [
      redisRateLimiters(await connect(), prefix)('token-client', limit),
      redisRateLimiters(await connect(), prefix)('token-client', limit),
    ];
    const admitted: boolean[] = [];
    for (let request = 0; request < 6; request += 1) {
      admitted.push((await instances[request % 2]?.consume('client-a'))?.allowed ?? false);
    }
    expect(admitted).toEqual([true, true, true, true, false, false]);
  });

  it('record: exactly one event of those two instances record at once engages the lock-out', async () => {
    const prefix = testKeyPrefix();
    const limit = { points: 5, windowSeconds: 900 };
    const [one, other] = [
      redisRateLimiters(await connect(), prefix)('login-email', limit),
      redisRateLimiters(await connect(), prefix)('login-email', limit),
    ];
    const engaged = await Promise.all(
      Array.from({ length: 20 }, (_, event) => (event % 2 === 0 ? one : other)?.record('a@example.com')),
    );
    expect(engaged.filter(Boolean)).toHaveLength(1);
    expect((await other?.check('a@example.com'))?.allowed).toBe(false);
  });

  it('decides a counted request in one command to Redis, under the prefix, expiring with its window', async () => {
    const prefix = testKeyPrefix();
    const client = await connect();
    const limiter = redisRateLimiters(client, prefix)('token-ip', { points: 10, windowSeconds: 60 });
    // The first call may also have to hand Redis the script (NOSCRIPT, then EVAL): not counted.
    await limiter.consume('198.51.100.1');
    const sent = vi.spyOn(client, 'sendCommand');
    await limiter.consume('203.0.113.7');
    await limiter.record('203.0.113.7');
    expect(sent.mock.calls.map(([command]) => command.name)).toEqual(['evalsha', 'evalsha']);
    const ttl = await client.pttl(`${prefix}limits:token-ip:203.0.113.7`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});
