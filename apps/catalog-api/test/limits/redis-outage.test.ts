import { RedisFaultProxy } from '@catalog/server-runtime/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type LimitedApi, startLimitedApi, testKeyPrefix } from '../support/limited-api.ts';

// Instance A reaches Redis through a relay the test cuts; instance B reaches it directly. Behind
// TRUST_PROXY each phase sends from an address of its own (X-Forwarded-For), so phases do not mix.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const WARN = 40;
const from = (address: string) => ({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': address });

async function start(redisUrl: string, keyPrefix: string): Promise<LimitedApi> {
  const api = await startLimitedApi({
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: keyPrefix,
    TRUST_PROXY: 'true',
    RATE_LIMIT_IP_PER_5MIN: '4',
  });
  cleanups.push(() => api.stop());
  return api;
}

async function relay(): Promise<RedisFaultProxy> {
  const proxy = await RedisFaultProxy.start(inject('redisUrl'));
  cleanups.push(() => proxy.close());
  return proxy;
}

async function statuses(api: LimitedApi, address: string, count: number): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i += 1) seen.push((await api.call(from(address))).status);
  return seen;
}

const outageWarnings = (api: LimitedApi) =>
  api.logs.filter(
    (entry) => entry.level === WARN && entry.msg.startsWith('rate limits: Redis cannot answer'),
  );

describe('limits while Redis cannot answer (REDIS_URL set)', () => {
  it('answers every request under in-process limits, warns once per outage, counts it, and shares again once Redis is back', async () => {
    const proxy = await relay();
    const prefix = testKeyPrefix();
    const a = await start(proxy.url, prefix);
    const b = await start(inject('redisUrl'), prefix);

    // Shared: two requests through each instance fill the address's window of 4.
    expect([...(await statuses(a, '198.51.100.1', 2)), ...(await statuses(b, '198.51.100.1', 2))]).toEqual([
      200, 200, 200, 200,
    ]);
    expect(await statuses(a, '198.51.100.1', 1)).toEqual([429]);

    proxy.cut();
    // Never a 5xx, never unlimited: A enforces the limit of 4 on its own.
    expect(await statuses(a, '198.51.100.2', 6)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(outageWarnings(a)).toHaveLength(1);
    expect(await a.fallbacks()).toBe(6);

    proxy.restore();
    // A asks Redis again within a second of each failed try, and reconnects within a second.
    const deadline = performance.now() + 15_000;
    let probe = 0;
    while (!a.logs.some((entry) => entry.msg.startsWith('rate limits: Redis answers again'))) {
      expect(performance.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 100));
      probe += 1;
      await a.call(from(`198.51.100.${100 + probe}`));
    }
    const fallbacksBefore = await a.fallbacks();
    expect([...(await statuses(a, '198.51.100.3', 2)), ...(await statuses(b, '198.51.100.3', 2))]).toEqual([
      200, 200, 200, 200,
    ]);
    expect(await statuses(a, '198.51.100.3', 1)).toEqual([429]);
    expect(await a.fallbacks()).toBe(fallbacksBefore);

    // A second outage is a second warning.
    proxy.cut();
    expect(await statuses(a, '198.51.100.4', 1)).toEqual([200]);
    expect(outageWarnings(a)).toHaveLength(2);
    expect(outageWarnings(b)).toHaveLength(0);
  });

  it('starts and serves under in-process limits when Redis is unreachable from the start', async () => {
    const proxy = await relay();
    proxy.cut();
    const startedAt = performance.now();
    const a = await start(proxy.url, testKeyPrefix());
    expect(performance.now() - startedAt).toBeLessThan(10_000);
    expect(await statuses(a, '198.51.100.5', 5)).toEqual([200, 200, 200, 200, 429]);
    expect(outageWarnings(a)).toHaveLength(1);
    expect(await a.fallbacks()).toBe(5);
  });
});
