import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { testKeyPrefix } from './support/limited-api.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

describe('limits (spec 8)', () => {
  it('answers 429 "Too many requests" with Retry-After past the shared throttle, and health stays up', async () => {
    stack = await startStack({
      env: { RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '2', RATE_LIMIT_IP_PER_5MIN: '0' },
    });
    const started = performance.now();
    // 40 calls at once against 2 a second: only a machine that spread them over 20 s would refuse none.
    const replies = await Promise.all(Array.from({ length: 40 }, () => stack?.call('/openapi.json')));
    // The throttle counts per one-second window: a slow machine may spread the calls over several.
    const windows = Math.ceil((performance.now() - started) / 1000) + 1;
    const limited = replies.filter((reply) => reply?.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(replies.filter((reply) => reply?.status === 200).length).toBeLessThanOrEqual(2 * windows);
    expect(limited[0]?.body).toEqual({ message: 'Too many requests' });
    expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await stack.call('/health')).status).toBe(200);
  });

  it('blocks a source IP after RATE_LIMIT_IP_PER_5MIN requests, with a Retry-After of the rest of its 5 minutes', async () => {
    stack = await startStack({ env: { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '8' } });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await stack.call('/openapi.json')).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8)).toEqual([429, 429]);
    const blocked = await stack.call('/openapi.json');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(200);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(300);
  });

  it('lets a blocked source IP back in once the window clears, not before its Retry-After (RATE_LIMIT_IP_WINDOW_SECONDS)', async () => {
    const windowSeconds = 2;
    stack = await startStack({
      env: {
        RATE_LIMIT_RPS: '0',
        RATE_LIMIT_IP_PER_5MIN: '3',
        RATE_LIMIT_IP_WINDOW_SECONDS: String(windowSeconds),
      },
    });
    const call = () => (stack as Stack).call('/openapi.json');
    // Until the first refusal: at least the allowance gets through (more only if the window rolled
    // on a slow machine).
    let accepted = 0;
    let sentAt = performance.now();
    let reply = await call();
    while (reply.status === 200 && accepted < 100) {
      accepted += 1;
      sentAt = performance.now();
      reply = await call();
    }
    expect(reply.status).toBe(429);
    expect(accepted).toBeGreaterThanOrEqual(3);
    const retryAfter = Number(reply.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    // Refused requests count nothing, so polling cannot keep the block up: it lifts by itself, and
    // not before Retry-After (whole seconds, rounded up) counted from when the refused call was sent.
    // (Ten windows, not a bound on speed: only so that a block that never lifts fails with its status.)
    while (reply.status === 429 && performance.now() - sentAt < 10 * windowSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await call();
    }
    expect(reply.status).toBe(200);
    expect(performance.now() - sentAt).toBeGreaterThanOrEqual((retryAfter - 1) * 1000);
  });

  it('lets a burst of up to RATE_LIMIT_BURST through above the sustained rate', async () => {
    stack = await startStack({
      env: { RATE_LIMIT_RPS: '4', RATE_LIMIT_BURST: '10', RATE_LIMIT_IP_PER_5MIN: '0' },
    });
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 30 }, () => stack?.call('/openapi.json')));
    const extraWindows = Math.ceil((performance.now() - started) / 1000);
    const passed = replies.filter((reply) => reply?.status === 200).length;
    // 4 per second plus a burst allowance of 6 on top: at least the burst, never more than it allows.
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(10 + 4 * extraWindows);
  });

  it('keeps the limits in Redis under REDIS_KEY_PREFIX when the server is started with REDIS_URL', async () => {
    const prefix = testKeyPrefix();
    stack = await startStack({
      env: { REDIS_URL: inject('redisUrl'), REDIS_KEY_PREFIX: prefix, RATE_LIMIT_IP_PER_5MIN: '3' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await stack.call('/openapi.json')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const redis = new Redis(inject('redisUrl'));
    try {
      const windows = await redis.keys(`${prefix}limits:ip:*`);
      expect(windows).toHaveLength(1);
      const slices = await redis.hvals(windows[0] ?? '');
      expect(slices.reduce((sum, count) => sum + Number(count), 0)).toBe(3);
    } finally {
      redis.disconnect();
    }
  });
});
