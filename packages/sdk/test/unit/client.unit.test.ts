// Client rules of spec 5 and 7.4 on the machine's own Node (20 on CI, `pnpm run test:node20`), where the real
// servers cannot run (they need node:sqlite, Node 22.5+): so against the local stand-in behind the fault
// proxy. The same rules run against the real servers in client.real.test.ts and pacing.real.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { transportSettings } from '../../src/http/settings.ts';
import { createMemoryTokenStore, createTokenProvider } from '../../src/http/tokens.ts';
import {
  AbortError,
  AuthenticationError,
  type CatalogClientOptions,
  createCatalogClient,
  ForbiddenError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from '../../src/index.ts';
import { faults } from '../support/fault-proxy.ts';
import { type LocalApi, startLocalApi } from '../support/local-api.ts';

let api: LocalApi;
const clients: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  api = await startLocalApi();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  api.proxy.reset();
  api.lifetime = 3600;
});
afterAll(async () => {
  await api?.close();
});

function client(overrides: Partial<CatalogClientOptions> = {}) {
  const created = createCatalogClient({
    baseUrl: api.url,
    authUrl: api.url,
    clientId: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    clientSecret: 'secret',
    ca: api.ca,
    retry: { baseMs: 5, capMs: 40, maxRetryAfterMs: 2_000 },
    pacing: false,
    ...overrides,
  });
  clients.push(created);
  return created;
}

const searchesSeen = () =>
  api.proxy.seen.filter((request) => request.path.startsWith('/products/search')).length;

describe('spec 7.4: retry classification', () => {
  it('429 without Retry-After is retried with backoff', async () => {
    const before = searchesSeen();
    const retries: number[] = [];
    api.proxy.queue('/products/search', faults.tooManyRequests());
    const page = await client({
      hooks: { onRetry: (event) => retries.push(event.attempt) },
    }).products.search();
    expect(page.data).toHaveLength(1);
    expect(searchesSeen() - before).toBe(2);
    expect(retries).toEqual([1]);
  });

  it('429 with Retry-After waits at least that long', async () => {
    api.proxy.queue('/products/search', faults.tooManyRequests('0.3'));
    const delays: number[] = [];
    const started = performance.now();
    await client({ hooks: { onRetry: (event) => delays.push(event.delayMs) } }).products.search();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(delays[0]).toBeGreaterThanOrEqual(300);
  });

  it('429 whose Retry-After exceeds the maximum fails at once', async () => {
    const before = searchesSeen();
    api.proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const error = await client()
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryable: true, attempts: 1, retryAfterMs: 3_600_000 });
    expect(searchesSeen() - before).toBe(1);
  });

  it('500, 503 SEARCH_INCOMPLETE and 504 are retried, three attempts in all, then a typed ServerError', async () => {
    const before = searchesSeen();
    api.proxy.queue('/products/search', faults.internal(), faults.searchIncomplete(), faults.searchTimeout());
    const error = await client()
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({
      status: 504,
      code: 'SEARCH_TIMEOUT',
      requestId: 'r-504',
      attempts: 3,
      retryable: true,
    });
    expect(searchesSeen() - before).toBe(3);
  });

  it('a 503 SEARCH_INCOMPLETE then success: the call succeeds on the second attempt', async () => {
    api.proxy.queue('/products/search', faults.searchIncomplete());
    expect((await client().products.search()).data).toHaveLength(1);
  });

  it('connection resets are retried; three resets are a NetworkError', async () => {
    api.proxy.queue('/products/search', faults.reset());
    expect((await client().products.search()).data).toHaveLength(1);
    api.proxy.queue('/products/search', faults.reset(), faults.reset(), faults.reset());
    const error = await client()
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.attempts).toBe(3);
  });

  it('403 is never retried', async () => {
    const before = searchesSeen();
    api.proxy.queue('/products/search', faults.forbidden());
    const error = await client()
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(searchesSeen() - before).toBe(1);
  });

  it('other 4xx are never retried', async () => {
    const before = searchesSeen();
    api.proxy.queue('/products/search', {
      kind: 'status',
      status: 400,
      body: { message: 'bad', error: 'VALIDATION_ERROR', details: { field: 'size', reason: 'too big' } },
    });
    const error = await client()
      .products.search()
      .catch((caught) => caught);
    expect(error).toMatchObject({
      name: 'BadRequestError',
      status: 400,
      code: 'VALIDATION_ERROR',
      retryable: false,
    });
    expect(searchesSeen() - before).toBe(1);
  });

  it('401: a new token and one replay; a second 401 is an AuthenticationError', async () => {
    const tokensBefore = api.counts.token;
    api.proxy.queue('/products/search', faults.unauthorized());
    const c = client();
    expect((await c.products.search()).data).toHaveLength(1);
    expect(api.counts.token - tokensBefore).toBe(2);
    api.proxy.queue('/products/search', faults.unauthorized(), faults.unauthorized());
    const error = await c.products.search().catch((caught) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(api.counts.token - tokensBefore).toBe(3);
  });
});

describe('timeouts and cancellation (a certainly slow answer; order observed, no wall-clock bounds)', () => {
  it('a slow attempt is cut by the per-attempt timeout and retried', async () => {
    const retried: unknown[] = [];
    // The first attempt is the slow one whenever it reaches the proxy (a queued fault would slow the
    // retry instead when the first attempt timed out before it got there); the retry has a time-out
    // the local API meets on a busy machine.
    let attempt = 0;
    api.proxy.rule(({ path }) =>
      path.startsWith('/products/search') && attempt === 1 ? faults.slow(60_000) : undefined,
    );
    const c = client({
      attemptTimeoutMs: 2_000,
      hooks: {
        onRequest: (event) => {
          if (event.url.includes('/products/search')) attempt = event.attempt;
        },
        onRetry: (event) => retried.push(event.error),
      },
    });
    expect((await c.products.search()).data).toHaveLength(1);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toBeInstanceOf(TimeoutError);
  });

  it('three slow attempts are a TimeoutError', async () => {
    // No search is ever answered: each attempt times out however far it got.
    api.proxy.rule(({ path }) => (path.startsWith('/products/search') ? faults.slow(60_000) : undefined));
    const error = await client({ attemptTimeoutMs: 100 })
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.attempts).toBe(3);
  });

  it('the total timeout covers every attempt and backoff sleep', async () => {
    // A one-hour Retry-After the policy would wait for: only the total timeout can end the call.
    api.proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const error = await client({
      totalTimeoutMs: 200,
      retry: { baseMs: 5, capMs: 40, maxRetryAfterMs: 7_200_000 },
    })
      .products.search()
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('an AbortSignal stops the backoff sleep', async () => {
    const controller = new AbortController();
    api.proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const c = client({
      retry: { baseMs: 5, capMs: 40, maxRetryAfterMs: 7_200_000 },
      hooks: { onRetry: () => controller.abort() },
    });
    const error = await c.products.search({}, { signal: controller.signal }).catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.attempts).toBe(1);
  });

  it('an AbortSignal stops the attempt in flight', async () => {
    const controller = new AbortController();
    const c = client();
    await c.accessToken();
    api.proxy.rule(({ path }) => {
      if (!path.startsWith('/products/search')) return undefined;
      controller.abort();
      return faults.slow(60_000);
    });
    const error = await c.products.search({}, { signal: controller.signal }).catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
  });
});

describe('spec 5.7: tokens', () => {
  it('N concurrent cold calls send exactly one token request', async () => {
    const before = api.counts.token;
    const c = client();
    await Promise.all(Array.from({ length: 10 }, () => c.products.search()));
    expect(api.counts.token - before).toBe(1);
  });

  it('a token is refreshed min(300 s, lifetime / 2) before expiry (injected clock)', async () => {
    const { settings, owned } = transportSettings({ ca: api.ca, pacing: false });
    for (const [lifetime, marginSeconds] of [
      [3600, 300],
      [400, 200],
    ] as const) {
      api.lifetime = lifetime;
      let clock = 1_000_000;
      const reasons: string[] = [];
      const tokens = createTokenProvider({
        authUrl: new URL(api.url),
        clientId: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
        clientSecret: 'secret',
        scopes: ['products.read'],
        store: createMemoryTokenStore(),
        transport: { ...settings, hooks: { onTokenRefresh: (event) => reasons.push(event.reason) } },
        now: () => clock,
      });
      const first = await tokens.token();
      clock += (lifetime - marginSeconds) * 1000 - 1;
      expect(await tokens.token()).toBe(first);
      clock += 1;
      expect(await tokens.token()).not.toBe(first);
      expect(reasons).toEqual(['cold', 'expiring']);
    }
    await owned?.close();
  });
});

describe('spec 8: client-side pacing', () => {
  it('the token bucket keeps the request rate under the configured requests per second', async () => {
    const waits: number[] = [];
    const c = client({
      pacing: { requestsPerSecond: 20, burst: 1, windowRequests: 0 },
      hooks: { onRateLimitWait: (event) => waits.push(event.waitedMs) },
    });
    await c.accessToken();
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, () => c.products.search()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(330);
    expect(waits.length).toBeGreaterThan(0);
  });

  it('the sliding window holds requests past the per-window budget until the window clears', async () => {
    const c = client({
      pacing: { requestsPerSecond: 0, windowRequests: 4, windowMs: 300, windowMarginMs: 0 },
    });
    await c.accessToken();
    const started = performance.now();
    await Promise.all(Array.from({ length: 6 }, () => c.products.search()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe('spec 8: pacing shared between processes on one IP', () => {
  it('two pacers on one state file share one budget', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createFilePacer } = await import('../../src/index.ts');
    const dir = await mkdtemp(join(tmpdir(), 'sdk-pacer-'));
    const options = {
      path: join(dir, 'pacer.json'),
      requestsPerSecond: 0,
      windowRequests: 4,
      windowMs: 400,
      windowMarginMs: 0,
    };
    const [a, b] = [createFilePacer(options), createFilePacer(options)];
    const started = performance.now();
    await Promise.all([a.acquire(), a.acquire(), a.acquire(), b.acquire(), b.acquire(), b.acquire()]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    await rm(dir, { recursive: true, force: true });
  });
});
