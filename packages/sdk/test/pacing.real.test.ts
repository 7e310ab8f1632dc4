// Spec 8 against the real API with its gateway throttle on (20 requests in each 1 s window): the client's
// pacing keeps a full sync free of 429s, and the real 429s a burst meets carry a Retry-After the client
// honours, or fails at once on when it is above maxRetryAfterMs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogClientOptions, createCatalogClient, RateLimitError, sync } from '../src/index.ts';
import { memorySink } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

const SERVER_RPS = 20;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    demoProducts: 250,
    env: {
      RATE_LIMIT_RPS: String(SERVER_RPS),
      RATE_LIMIT_BURST: String(SERVER_RPS),
      RATE_LIMIT_IP_PER_5MIN: '0',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
});

async function throttledClient(overrides: Partial<CatalogClientOptions>) {
  const statuses: number[] = [];
  const client = createCatalogClient({
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    ...(await stack.credentials(['products.read'])),
    ca: stack.ca,
    hooks: { onResponse: (event) => statuses.push(event.status) },
    ...overrides,
  });
  await client.accessToken();
  return { client, statuses };
}

describe('spec 8: client-side pacing against the real gateway throttle', () => {
  it('paced at half the throttle rate, a full sync (size 10, more requests than one window admits, one attempt each) never meets a 429', async () => {
    // Half the server's rate: headroom for the server's fixed 1 s windows and a loaded machine's jitter.
    const { client, statuses } = await throttledClient({
      pacing: { requestsPerSecond: SERVER_RPS / 2, burst: 1, windowRequests: 0 },
      retry: { maxAttempts: 1 },
    });
    const sink = memorySink();
    const report = await sync({
      client,
      checkpointStore: {
        load: async () => ({ checkpoint: null, progress: null }),
        saveProgress: async () => undefined,
        clearProgress: async () => undefined,
        commit: async () => undefined,
      },
      upsert: sink.upsert,
      pageSize: 10,
    });
    expect(report.pages).toBeGreaterThan(SERVER_RPS);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect([...sink.rows.keys()].sort()).toEqual(await stack.liveProductIds());
    await client.close();
  });

  it('a real 429 carries Retry-After: the client waits at least that long before retrying, and every call succeeds', async () => {
    const waits: { delayMs: number; retryAfterMs: number | undefined }[] = [];
    const { client, statuses } = await throttledClient({
      pacing: false,
      retry: { maxAttempts: 5, baseMs: 5, capMs: 50, maxRetryAfterMs: 10_000 },
      hooks: {
        onResponse: (event) => statuses.push(event.status),
        onRetry: (event) => waits.push({ delayMs: event.delayMs, retryAfterMs: event.error.retryAfterMs }),
      },
    });
    // Three times the window's budget at once: at least one 429 whatever the timing.
    const pages = await Promise.all(
      Array.from({ length: SERVER_RPS * 3 }, () => client.products.search({ size: 1 })),
    );
    expect(pages.every((page) => page.data.length === 1)).toBe(true);
    expect(statuses).toContain(429);
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) {
      expect(wait.retryAfterMs).toBeGreaterThanOrEqual(1_000);
      expect(wait.delayMs).toBeGreaterThanOrEqual(wait.retryAfterMs ?? Number.POSITIVE_INFINITY);
    }
    await client.close();
  });

  it('a real 429 whose Retry-After is above maxRetryAfterMs fails at once: a RateLimitError, never retried', async () => {
    const attempts: number[] = [];
    const { client, statuses } = await throttledClient({
      pacing: false,
      retry: { maxAttempts: 3, baseMs: 5, capMs: 50, maxRetryAfterMs: 500 },
      hooks: {
        onRequest: (event) => {
          if (event.url.includes('/products/search')) attempts.push(event.attempt);
        },
        onResponse: (event) => statuses.push(event.status),
      },
    });
    const calls = SERVER_RPS * 3;
    const results = await Promise.allSettled(
      Array.from({ length: calls }, () => client.products.search({ size: 1 })),
    );
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(refused.length).toBeGreaterThan(0);
    for (const error of refused) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, attempts: 1 });
      expect(error.retryAfterMs).toBeGreaterThanOrEqual(1_000);
    }
    expect(attempts).toHaveLength(calls); // one attempt per call: nothing retried
    expect(statuses.filter((status) => status === 429)).toHaveLength(refused.length);
    await client.close();
  });
});
