import { connectRedis } from '@catalog/server-runtime';
import { RedisFaultProxy } from '@catalog/server-runtime/testing';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { memoryRateLimiters } from '../src/adapters/memory-rate-limiters.ts';
import { redisRateLimiters } from '../src/adapters/redis/redis-rate-limiters.ts';
import { insuredRateLimiters } from '../src/limits/insured-rate-limiters.ts';
import { testKeyPrefix } from './support/redis-prefix.ts';

interface LogEntry {
  readonly level: number;
  readonly msg: string;
}

const WARN = 40;
const INFO = 30;

describe('insured rate limiters: the in-process limits while Redis cannot answer', () => {
  let proxy: RedisFaultProxy | undefined;
  let client: Redis | undefined;
  afterEach(async () => {
    client?.disconnect();
    await proxy?.close();
  });

  async function open() {
    proxy = await RedisFaultProxy.start(inject('redisUrl'));
    client = await connectRedis(proxy.url);
    const logs: LogEntry[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
    const clock = { now: 1_000_000 };
    let fallbacks = 0;
    const make = insuredRateLimiters({
      shared: redisRateLimiters(client, testKeyPrefix()),
      insurance: memoryRateLimiters,
      logger,
      onFallback: () => {
        fallbacks += 1;
      },
      now: () => clock.now,
    });
    return { proxy, make, logs, clock, fallbacks: () => fallbacks };
  }

  it('decides alone while Redis is cut, never unlimited, with one warning for every limiter, and shares again once it answers', async () => {
    const { proxy, make, logs, clock, fallbacks } = await open();
    const limit = { points: 2, windowSeconds: 60 };
    const tokens = make('token-client', limit);
    const lockout = make('login-email', limit);
    expect((await tokens.consume('client-a')).allowed).toBe(true);

    proxy.cut();
    // The in-process limiter starts from nothing: it admits the key's whole limit, then refuses.
    const during = [];
    for (let request = 0; request < 3; request += 1) {
      clock.now += 400;
      during.push((await tokens.consume('client-a')).allowed);
    }
    expect(during).toEqual([true, true, false]);
    expect(await lockout.record('a@example.com')).toBe(false);
    expect(await lockout.record('a@example.com')).toBe(true);
    expect((await lockout.check('a@example.com')).allowed).toBe(false);
    expect(fallbacks()).toBe(6);
    const warnings = logs.filter((entry) => entry.level === WARN);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/Redis cannot answer/);

    proxy.restore();
    const deadline = Date.now() + 60_000;
    // Each try is a second later on the limiters' clock, so each asks Redis (while reconnecting).
    while (!logs.some((entry) => entry.level === INFO && /answers again/.test(entry.msg))) {
      if (Date.now() > deadline) throw new Error('Redis never answered again');
      clock.now += 1000;
      await tokens.check('client-b');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Shared again: the key's count is Redis's (one request before the cut), not this process's.
    expect((await tokens.consume('client-a')).allowed).toBe(true);
    expect((await tokens.consume('client-a')).allowed).toBe(false);
    expect(logs.filter((entry) => entry.level === WARN)).toHaveLength(1);
  });

  it('asks Redis at most once a second during an outage', async () => {
    const { proxy, make, clock, fallbacks } = await open();
    const limiter = make('token-ip', { points: 100, windowSeconds: 60 });
    proxy.cut();
    await limiter.consume('203.0.113.7');
    expect(fallbacks()).toBe(1);
    proxy.restore();
    // Redis could answer now, but the next second has not begun on the limiter's clock.
    for (let request = 0; request < 5; request += 1) {
      clock.now += 100;
      await limiter.consume('203.0.113.7');
    }
    expect(fallbacks()).toBe(6);
  });
});
