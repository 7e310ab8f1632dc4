// Spec part 8, the rate limits (and the 429 rows of 7.1 and 7.4): their wire behaviour on a stack with
// small RATE_LIMIT_* values, so the check is cheap. The 50 requests/second budget itself is measured by
// the load test. The other limits of part 8 are checked with the routes they bound (catalogue-routes,
// client-management, token-endpoint, incremental-sync).
//
// The cluster run (E2E_ENGINE=cluster) runs this file too, each stack then a cluster: the same wire
// behaviour through nginx, from two API instances counting in Redis.
import { RateLimitError } from '@catalog/sdk';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { type Call, contractCall } from './support/contract.ts';
import { type M2MCaller, m2mCaller, sdkClient } from './support/people.ts';

const RPS = 20;
const PER_IP = 40;
/** The third stack's per-IP window (RATE_LIMIT_IP_WINDOW_SECONDS): short enough to watch it clear. */
const SHORT_WINDOW_S = 3;
const SHORT_WINDOW_LIMIT = 5;

let stack: E2EStack; // the shared throttle only
let call: Call;
let first: M2MCaller;
let second: M2MCaller;
let perIp: E2EStack; // the per-IP window only
let perIpCall: Call;
let perIpCaller: M2MCaller;
let clearing: E2EStack; // a per-IP window of a few seconds
let clearingCaller: M2MCaller;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const retryAfter = (reply: { headers: Record<string, string | string[] | undefined> }) =>
  Number(reply.headers['retry-after']);
const searchAs = (token: string) => call('/products/search?size=1', { token });

beforeAll(async () => {
  [stack, perIp, clearing] = await Promise.all([
    startE2EStack({
      demoProducts: 50,
      env: { RATE_LIMIT_RPS: String(RPS), RATE_LIMIT_BURST: String(RPS), RATE_LIMIT_IP_PER_5MIN: '0' },
    }),
    startE2EStack({
      demoProducts: 50,
      env: { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: String(PER_IP) },
    }),
    startE2EStack({
      demoProducts: 50,
      env: {
        RATE_LIMIT_RPS: '0',
        RATE_LIMIT_IP_PER_5MIN: String(SHORT_WINDOW_LIMIT),
        RATE_LIMIT_IP_WINDOW_SECONDS: String(SHORT_WINDOW_S),
      },
    }),
  ]);
  call = contractCall(stack);
  perIpCall = contractCall(perIp);
  [first, second, perIpCaller, clearingCaller] = await Promise.all([
    m2mCaller(stack, ['products.read']),
    m2mCaller(stack, ['products.read']),
    m2mCaller(perIp, ['products.read']),
    m2mCaller(clearing, ['products.read']),
  ]);
});
afterAll(() => Promise.all([stack?.stop(), perIp?.stop(), clearing?.stop()]));

/**
 * Uses up the throttle's second with `first`'s token (five times its budget at once), then runs `then`
 * at once. The throttle counts in one-second windows: on a busy machine a window can open near the
 * end of the burst and leave room, so a round that did not end with the budget spent is tried again,
 * until one does (each round is a fresh chance; ten in a row leaving room does not happen).
 */
async function overBudget<T>(then: () => Promise<T>, spent: (result: T) => boolean) {
  for (let round = 1; ; round += 1) {
    const burst = await Promise.all(Array.from({ length: 5 * RPS }, () => searchAs(first.token)));
    const result = await then();
    if (spent(result) || round === 10) return { burst, result };
  }
}

describe('8 rate limits over the wire', () => {
  it('[8 Gateway throttle][7.1 429][7.2 gateway bodies][8 Retry-After] over the budget: 429 {message} only, with Retry-After; the budget is shared by all M2M clients', async () => {
    const { burst, result: other } = await overBudget(
      () => searchAs(second.token),
      (reply) => reply.status === 429,
    );
    const limited = burst.filter((reply) => reply.status === 429);
    expect(limited.length, burst.map((reply) => reply.status).join(',')).toBeGreaterThan(0);
    for (const reply of burst) expect([200, 429]).toContain(reply.status);
    expect(other.status, 'a second client, right after the first used up the budget').toBe(429);
    for (const reply of [...limited, other]) {
      expect(reply.body).toEqual({ message: 'Too many requests' });
      expect(Number.isInteger(retryAfter(reply))).toBe(true);
      expect(retryAfter(reply)).toBeGreaterThanOrEqual(0);
    }
    await sleep(1_000 * Math.max(1, ...limited.map(retryAfter)) + 100);
    expect((await searchAs(second.token)).status).toBe(200);
  });

  it('[7.4 429] 429 is retryable: the SDK waits at least Retry-After, retries, and the call succeeds', async () => {
    const retries: { status: number | undefined; delayMs: number }[] = [];
    const client = sdkClient(stack, second, {
      scopes: ['products.read'],
      hooks: { onRetry: (event) => retries.push({ status: event.error.status, delayMs: event.delayMs }) },
    });
    const noRetry = sdkClient(stack, second, {
      scopes: ['products.read'],
      retry: { baseMs: 5, capMs: 50, maxRetryAfterMs: 5_000, maxAttempts: 1 },
    });
    try {
      await Promise.all([client.products.search({ size: 1 }), noRetry.products.search({ size: 1 })]);
      const { result } = await overBudget(
        async () => {
          retries.length = 0;
          return Promise.all([
            client.products.search({ size: 1 }),
            noRetry.products.search({ size: 1 }).catch((caught: unknown) => caught),
          ]);
        },
        ([, error]) => error instanceof RateLimitError,
      );
      const [page, error] = result;
      expect(page.data).toHaveLength(1);
      expect(retries[0]?.status).toBe(429);
      expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1_000);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryable: true });
    } finally {
      await Promise.all([client.close(), noRetry.close()]);
    }
  });

  it('[8 Per-IP protection][7.1 429] a source IP over its 5-minute allowance is blocked (429 with Retry-After), still after a second; /health stays reachable', async () => {
    const replies = await Promise.all(
      Array.from({ length: PER_IP + 10 }, () =>
        perIpCall('/products/search?size=1', { token: perIpCaller.token }),
      ),
    );
    const blocked = replies.filter((reply) => reply.status === 429);
    expect(replies.filter((reply) => reply.status === 200).length).toBeLessThanOrEqual(PER_IP);
    expect(blocked.length).toBeGreaterThanOrEqual(10);
    for (const reply of blocked) {
      expect(reply.body).toEqual({ message: 'Too many requests' });
      expect(retryAfter(reply)).toBeGreaterThan(30);
    }
    await sleep(1_200);
    const still = await perIpCall('/products/search?size=1', { token: perIpCaller.token });
    expect(still.status).toBe(429);
    expect(retryAfter(still)).toBeGreaterThan(30);
    // The health probe stays reachable so operators can tell a blocked client from a dead server.
    const health = await rawRequest(`${perIp.baseUrl}/health`, { ca: perIp.ca });
    expect(health.status).toBe(200);
  });

  it(`[8 Per-IP protection] a blocked source IP gets back in once the window clears (a ${SHORT_WINDOW_S}-second window through RATE_LIMIT_IP_WINDOW_SECONDS), not before its Retry-After`, async () => {
    const clearingCall = contractCall(clearing);
    const searchOnce = () => clearingCall('/products/search?size=1', { token: clearingCaller.token });
    // Until the first refusal: at least the allowance gets through (more only if the window rolled).
    let accepted = 0;
    let sentAt = Date.now();
    let blocked = await searchOnce();
    while (blocked.status === 200 && accepted < 1_000) {
      accepted += 1;
      sentAt = Date.now();
      blocked = await searchOnce();
    }
    expect(blocked.status).toBe(429);
    expect(accepted).toBeGreaterThanOrEqual(SHORT_WINDOW_LIMIT);
    const wait = retryAfter(blocked);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(SHORT_WINDOW_S);
    // Then poll (the refused polls count nothing): the block lifts by itself, not before Retry-After
    // (whole seconds, rounded up) counted from when the refused request was sent.
    let reply = await searchOnce();
    while (reply.status === 429) {
      await sleep(100);
      reply = await searchOnce();
    }
    expect(reply.status).toBe(200);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual((wait - 1) * 1000);
  });
});
