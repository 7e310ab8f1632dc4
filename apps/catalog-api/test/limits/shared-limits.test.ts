import type { RawReply } from '@catalog/server-runtime/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type LimitedApi, startLimitedApi, testKeyPrefix } from '../support/limited-api.ts';

// Two API instances of one deployment: the same Redis and key prefix (REDIS_URL, REDIS_KEY_PREFIX).
const running: LimitedApi[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((api) => api.stop()));
});

async function twoInstances(env: Record<string, string>): Promise<[LimitedApi, LimitedApi]> {
  const shared = { REDIS_URL: inject('redisUrl'), REDIS_KEY_PREFIX: testKeyPrefix(), ...env };
  const pair = await Promise.all([startLimitedApi(shared), startLimitedApi(shared)]);
  running.push(...pair);
  return pair;
}

describe('limits shared through Redis by every API instance (spec 8, REDIS_URL)', () => {
  it('two instances keep ONE per-IP window between them, with the Retry-After of the rest of it', async () => {
    const [a, b] = await twoInstances({ RATE_LIMIT_IP_PER_5MIN: '6' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await (i % 2 === 0 ? a : b).call()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
    for (const instance of [a, b]) {
      const refused = await instance.call();
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toEqual({ message: 'Too many requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(200);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(300);
    }
    expect(await a.fallbacks()).toBe(0);
  });

  it('two instances keep ONE gateway budget between them: RATE_LIMIT_BURST at once, then RATE_LIMIT_RPS a second', async () => {
    const [a, b] = await twoInstances({ RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '6' });
    const started = performance.now();
    const replies: RawReply[] = [];
    for (let i = 0; i < 12; i += 1) replies.push(await (i % 2 === 0 ? a : b).call());
    const elapsedSeconds = Math.floor((performance.now() - started) / 1000);
    const admitted = replies.filter((reply) => reply.status === 200).length;
    // Each instance on its own would admit 6 of its 6. Shared: 6 in the first second (1 sustained
    // and 5 of burst), then one more per second a slow machine took.
    expect(admitted).toBeGreaterThanOrEqual(6);
    expect(admitted).toBeLessThanOrEqual(6 + elapsedSeconds);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(refused.map((reply) => reply.headers['retry-after'])).toEqual(refused.map(() => '1'));
  });

  it('lets a blocked address back in once the rolling window clears, through either instance', async () => {
    const windowSeconds = 2;
    const [a, b] = await twoInstances({
      RATE_LIMIT_IP_PER_5MIN: '4',
      RATE_LIMIT_IP_WINDOW_SECONDS: String(windowSeconds),
    });
    let reply = await a.call();
    let accepted = 0;
    let sentAt = performance.now();
    while (reply.status === 200 && accepted < 100) {
      accepted += 1;
      sentAt = performance.now();
      reply = await (accepted % 2 === 0 ? a : b).call();
    }
    expect(reply.status).toBe(429);
    expect(accepted).toBeGreaterThanOrEqual(4);
    const retryAfter = Number(reply.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    // Polling while blocked counts nothing: the block lifts by itself, on both instances alike.
    let polls = 0;
    while (reply.status === 429 && performance.now() - sentAt < 10 * windowSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      polls += 1;
      reply = await (polls % 2 === 0 ? a : b).call();
    }
    expect(reply.status).toBe(200);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual((retryAfter - 1) * 1000);
  });
});
