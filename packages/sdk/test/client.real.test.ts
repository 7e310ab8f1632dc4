// The client against both real servers over TLS (spec 4.1, 4.3, 5, 7.4).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  AuthenticationError,
  type CachedToken,
  ConfigurationError,
  createCatalogClient,
  createMemoryTokenStore,
  ForbiddenError,
  InvalidSyncTokenError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  TlsCertificateError,
} from '../src/index.ts';
import { type FaultProxy, faults, startFaultProxy } from './support/fault-proxy.ts';
import { clientFor, FAST_RETRY } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
/** The fault proxy in front of the real API: a certainly slow answer, a 429 with a chosen Retry-After. */
let proxy: FaultProxy;
beforeAll(async () => {
  stack = await startStack({ demoProducts: 250 });
  const tls = join(stack.dataDir, 'tls');
  proxy = await startFaultProxy({
    tls: {
      key: await readFile(join(tls, 'server-key.pem'), 'utf8'),
      cert: await readFile(join(tls, 'server.pem'), 'utf8'),
    },
    upstream: { url: stack.baseUrl, ca: stack.ca },
  });
});
afterEach(() => {
  proxy?.reset();
});
afterAll(async () => {
  await proxy?.close();
  await stack?.stop();
});

describe('typed methods for every M2M route (spec 4.1)', () => {
  it('products.search returns a page with data, pagination and syncToken', async () => {
    const client = await clientFor(stack);
    const page = await client.products.search({ size: 5, updatedAfter: '1970-01-01T00:00:00Z' });
    expect(page.data).toHaveLength(5);
    expect(page.pagination.hasMore).toBe(true);
    expect(typeof page.syncToken).toBe('string');
    await client.close();
  });

  it('products.searchAll iterates every non-archived product across pages by syncToken', async () => {
    const client = await clientFor(stack);
    const ids = new Set<string>();
    for await (const product of client.products.searchAll({
      size: 100,
      updatedAfter: '1970-01-01T00:00:00Z',
    })) {
      ids.add(product.id);
    }
    expect([...ids].sort()).toEqual(await stack.liveProductIds());
    await client.close();
  });

  it('products.get returns one product; an unknown id is NotFoundError (404)', async () => {
    const client = await clientFor(stack);
    const [first] = (await client.products.search({ size: 1 })).data;
    expect(first).toBeDefined();
    const product = await client.products.get(first?.id ?? '');
    expect(product.id).toBe(first?.id);
    const missing = await client.products.get('00000000-0000-4000-8000-000000000000').catch((error) => error);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.status).toBe(404);
    expect(missing.retryable).toBe(false);
    await client.close();
  });

  it('products.list (deprecated) pages by lastKey', async () => {
    const client = await clientFor(stack);
    let pages = 0;
    let products = 0;
    for await (const page of client.products.listPages({ limit: 100 })) {
      pages += 1;
      products += page.products.length;
    }
    expect(pages).toBeGreaterThan(1);
    expect(products).toBeGreaterThan(0);
    await client.close();
  });

  it('brands.list, brands.search (pages and items) and brands.get', async () => {
    const client = await clientFor(stack);
    const brands = await client.brands.list();
    expect(brands.length).toBeGreaterThan(0);
    const searched = [];
    for await (const brand of client.brands.searchAll({ size: 3 })) searched.push(brand);
    expect(searched.length).toBe((await client.brands.search({ size: 1 })).pagination.total);
    const first = brands[0];
    expect(await client.brands.get(first?.id ?? '')).toEqual(first);
    await client.close();
  });
});

describe('natural queries (booleans, field lists) and the response shape', () => {
  it('includeArchived: true and fields as an array are serialised as the contract asks', async () => {
    const client = await clientFor(stack);
    const [victim] = (await client.products.search({ size: 1, sort: 'code' })).data;
    await stack.store.products.archive(victim?.id ?? '');
    const withArchived = await client.products.search({
      q: victim?.productCode ?? '',
      includeArchived: true,
      fields: ['id', 'productCode'],
    });
    const found = withArchived.data.find((product) => product.id === victim?.id);
    expect(found).toEqual({ id: victim?.id, productCode: victim?.productCode }); // only the fields asked
    const without = await client.products.search({ q: victim?.productCode ?? '', includeArchived: false });
    expect(without.data.map((product) => product.id)).not.toContain(victim?.id);
    expect(typeof withArchived.pagination.total).toBe('number');
    expect(withArchived).toHaveProperty('syncToken');
    await client.close();
  });
});

describe('scopes: with none given, each resource asks only its own (spec 4.3, 5.2-5.4)', () => {
  it('a least-privilege client (products.read only) reads products with scopes omitted; brands are refused with invalid_scope', async () => {
    const credentials = await stack.credentials(['products.read']);
    const inner = createMemoryTokenStore();
    const asked: string[] = [];
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      ca: stack.ca,
      pacing: false,
      retry: FAST_RETRY,
      tokenStore: {
        get: (key) => inner.get(key),
        set: (key, token) => {
          asked.push(key.split('|')[2] ?? '');
          return inner.set(key, token);
        },
        delete: (key) => inner.delete(key),
      },
    });
    const [first] = (await client.products.search({ size: 1 })).data;
    expect((await client.products.get(first?.id ?? '')).id).toBe(first?.id);
    expect(asked).toEqual(['crm-api/products.read']);
    const refused = await client.brands.list().catch((caught) => caught);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect(refused.code).toBe('invalid_scope');
    await client.close();
  });

  it('a client granted both scopes gets a token per resource, each fetched on first use', async () => {
    const refreshes: number[] = [];
    const client = await clientFor(stack, {
      hooks: { onTokenRefresh: () => refreshes.push(1) },
    });
    await client.brands.list();
    expect(refreshes).toHaveLength(1);
    await client.products.search({ size: 1 });
    await client.brands.search({ size: 1 });
    expect(refreshes).toHaveLength(2);
    await client.close();
  });
});

describe('tokens (spec 5.7)', () => {
  it('N concurrent cold calls share one token request (single flight), and later calls reuse it', async () => {
    const refreshes: string[] = [];
    const client = await clientFor(stack, {
      hooks: { onTokenRefresh: (event) => refreshes.push(event.reason) },
    });
    await Promise.all(Array.from({ length: 10 }, () => client.products.search({ size: 1 })));
    await client.products.get((await client.products.search({ size: 1 })).data[0]?.id ?? '');
    expect(refreshes).toEqual(['cold']);
    await client.close();
  });

  it('on 401 a new token and one replay (spec 7.4 row 401)', async () => {
    const store = createMemoryTokenStore();
    const credentials = await stack.credentials();
    const stale: CachedToken = {
      accessToken: 'not-a-valid-token',
      expiresAt: Date.now() + 3_600_000,
      lifetimeSeconds: 3600,
    };
    const scope = 'crm-api/products.read'; // the products resource's own token (scopes omitted)
    store.set(`${new URL(stack.authUrl).origin}|${credentials.clientId}|${scope}`, stale);
    const statuses: number[] = [];
    const refreshes: string[] = [];
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      ca: stack.ca,
      tokenStore: store,
      pacing: false,
      hooks: {
        onResponse: (event) => statuses.push(event.status),
        onTokenRefresh: (event) => refreshes.push(event.reason),
      },
    });
    const page = await client.products.search({ size: 1 });
    expect(page.data).toHaveLength(1);
    expect(statuses).toEqual([401, 200, 200]); // refused call, token endpoint, replay
    expect(refreshes).toEqual(['rejected']);
    await client.close();
  });

  it('a shared token store lets two clients use one token', async () => {
    const store = createMemoryTokenStore();
    const credentials = await stack.credentials();
    const refreshes: string[] = [];
    const make = () =>
      createCatalogClient({
        baseUrl: stack.baseUrl,
        authUrl: stack.authUrl,
        ...credentials,
        ca: stack.ca,
        tokenStore: store,
        pacing: false,
        hooks: { onTokenRefresh: (event) => refreshes.push(event.reason) },
      });
    const [a, b] = [make(), make()];
    await a.products.search({ size: 1 });
    await b.products.search({ size: 1 });
    expect(refreshes).toHaveLength(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('wrong credentials are an AuthenticationError carrying invalid_client (spec 4.3)', async () => {
    const credentials = await stack.credentials();
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      clientId: credentials.clientId,
      clientSecret: 'wrong-secret',
      ca: stack.ca,
      retry: FAST_RETRY,
    });
    const error = await client.products.search().catch((caught) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('invalid_client');
    await client.close();
  });
});

describe('token lifetime from the real token server (spec 5.7)', () => {
  it('a token is refreshed before it expires: past min(300 s, lifetime / 2) the next call gets a new one first', async () => {
    const lifetimeSeconds = 4;
    const refreshes: { reason: string; expiresInSeconds: number; at: number }[] = [];
    const statuses: number[] = [];
    const client = await clientFor(stack, {
      ...(await stack.credentials(['products.read'], lifetimeSeconds)),
      hooks: {
        onTokenRefresh: (event) => refreshes.push({ ...event, at: Date.now() }),
        onResponse: (event) => statuses.push(event.status),
      },
    });
    await client.products.search({ size: 1 });
    const cold = refreshes[0];
    expect(cold).toMatchObject({ reason: 'cold', expiresInSeconds: lifetimeSeconds });
    // Observable state, not a race: the clock has passed the refresh point (lifetime / 2 before expiry).
    await vi.waitFor(
      () => expect(Date.now()).toBeGreaterThan((cold?.at ?? 0) + (lifetimeSeconds * 1000) / 2),
      {
        timeout: 5_000,
        interval: 50,
      },
    );
    await client.products.search({ size: 1 });
    expect(refreshes.map((event) => event.reason)).toEqual(['cold', 'expiring']);
    expect(statuses).not.toContain(401); // refreshed before the API could refuse it
    await client.close();
  });
});

describe('time-outs and cancellation against the real API (a certainly slow answer from the fault proxy)', () => {
  const viaProxy = async (overrides: Parameters<typeof clientFor>[1] = {}) => {
    const client = await clientFor(stack, { baseUrl: proxy.url, ...overrides });
    await client.accessToken(); // the token first, so the slow route is the only thing waited on
    return client;
  };
  const searches = () => proxy.seen.filter((request) => request.path.startsWith('/products/search')).length;

  it('an attempt slower than attemptTimeoutMs is cut and retried; the retry succeeds', async () => {
    const retried: unknown[] = [];
    // The slow answer never comes within the minute, so the first attempt certainly times out; the
    // budget leaves the retry, which the real API answers, room on a loaded machine. The first
    // attempt is the slow one whenever it reaches the proxy (a queued fault would slow the retry
    // instead if it timed out before it got there).
    let attempt = 0;
    const client = await viaProxy({
      attemptTimeoutMs: 5_000,
      hooks: {
        onRequest: (event) => {
          if (event.url.includes('/products/search')) attempt = event.attempt;
        },
        onRetry: (event) => retried.push(event.error),
      },
    });
    await client.products.search({ size: 1 }); // the API's search workers started before the timed call
    proxy.rule(({ path }) =>
      path.startsWith('/products/search') && attempt === 1 ? faults.slow(60_000) : undefined,
    );
    const page = await client.products.search({ size: 1 });
    expect(page.data).toHaveLength(1);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toBeInstanceOf(TimeoutError);
    await client.close();
  });

  it('three attempts slower than attemptTimeoutMs are a TimeoutError after three attempts', async () => {
    const attempts: number[] = [];
    const client = await viaProxy({
      attemptTimeoutMs: 200,
      hooks: {
        onRequest: (event) => {
          if (event.url.includes('/products/search')) attempts.push(event.attempt);
        },
      },
    });
    // No search is ever answered, so each attempt times out however far it got on a busy machine
    // (an attempt may time out before its connection reaches the proxy: the proxy's count is not
    // the rule, the client's attempts are).
    proxy.rule((request) => (request.path.startsWith('/products/search') ? faults.slow(60_000) : undefined));
    const error = await client.products.search({ size: 1 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ attempts: 3, retryable: true });
    expect(attempts).toEqual([1, 2, 3]);
    await client.close();
  });

  it('the total timeout covers the backoff sleep: a Retry-After of an hour ends in TimeoutError, not a wait', async () => {
    const client = await viaProxy({
      totalTimeoutMs: 1_000,
      retry: { ...FAST_RETRY, maxRetryAfterMs: 7_200_000 },
    });
    proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const error = await client.products.search({ size: 1 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    await client.close();
  });

  it('an AbortSignal stops the backoff sleep (aborted once the retry is scheduled)', async () => {
    const controller = new AbortController();
    const client = await viaProxy({
      retry: { ...FAST_RETRY, maxRetryAfterMs: 7_200_000 },
      hooks: { onRetry: () => controller.abort() },
    });
    proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const error = await client.products
      .search({ size: 1 }, { signal: controller.signal })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.attempts).toBe(1);
    await client.close();
  });

  it('an AbortSignal stops the attempt in flight (aborted once the API has the request)', async () => {
    const controller = new AbortController();
    const client = await viaProxy();
    proxy.rule(({ path }) => {
      if (!path.startsWith('/products/search')) return undefined;
      controller.abort();
      return faults.slow(60_000);
    });
    const error = await client.products
      .search({ size: 1 }, { signal: controller.signal })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortError);
    await client.close();
  });

  it('a Retry-After above maxRetryAfterMs fails at once with the RateLimitError, not retried', async () => {
    const client = await viaProxy({ retry: { ...FAST_RETRY, maxRetryAfterMs: 5_000 } });
    const before = searches();
    proxy.queue('/products/search', faults.tooManyRequests('3600'));
    const error = await client.products.search({ size: 1 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 3_600_000 });
    expect(searches() - before).toBe(1);
    await client.close();
  });
});

describe('retry classification against the real API (spec 7.4)', () => {
  it('403 is never retried (missing scope)', async () => {
    const attempts: number[] = [];
    const credentials = await stack.credentials(['brands.read']);
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      scopes: ['brands.read'],
      ca: stack.ca,
      retry: FAST_RETRY,
      hooks: { onRequest: (event) => attempts.push(event.attempt) },
    });
    const error = await client.products.search().catch((caught) => caught);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, retryable: false, attempts: 1 });
    expect(attempts.filter((n) => n > 1)).toEqual([]);
    await client.close();
  });

  it('INVALID_SYNC_TOKEN is its own error, not retried, with the requestId', async () => {
    const client = await clientFor(stack);
    const error = await client.products.search({ syncToken: 'garbage' }).catch((caught) => caught);
    expect(error).toBeInstanceOf(InvalidSyncTokenError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_SYNC_TOKEN', retryable: false, attempts: 1 });
    expect(typeof error.requestId).toBe('string');
    await client.close();
  });
});

describe('configuration (spec 5.10)', () => {
  it('refuses http:// base URLs and unknown options', () => {
    const base = { authUrl: 'https://localhost:4000', clientId: 'x', clientSecret: 'y' };
    expect(() => createCatalogClient({ ...base, baseUrl: 'http://localhost:3000' })).toThrow(
      ConfigurationError,
    );
    expect(() =>
      createCatalogClient({ ...base, baseUrl: 'https://localhost:3000', authUrl: 'http://x' }),
    ).toThrow(/https/);
    expect(() =>
      createCatalogClient({ ...base, baseUrl: 'https://localhost:3000', retires: 3 } as unknown as Parameters<
        typeof createCatalogClient
      >[0]),
    ).toThrow(/Unknown option/);
  });

  it('a certificate from an unknown CA is a TlsCertificateError, not retryable, after one attempt', async () => {
    const credentials = await stack.credentials();
    const attempts: number[] = [];
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      retry: FAST_RETRY,
      hooks: { onRequest: (event) => attempts.push(event.attempt) },
    });
    const error = await client.products.search().catch((caught) => caught);
    expect(error).toBeInstanceOf(TlsCertificateError);
    expect(error).toMatchObject({ retryable: false, attempts: 1, code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    expect(error.message).toMatch(/does not verify.*pass the CA/);
    expect(attempts).toEqual([1]); // the token request, never repeated
    await client.close();
  });

  it('a certificate for another host name is a TlsCertificateError, not retryable', async () => {
    const credentials = await stack.credentials();
    const dispatcher = new Agent({ connect: { ca: stack.ca, servername: 'catalog.other.example' } });
    const client = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      dispatcher,
      retry: FAST_RETRY,
    });
    const error = await client.products.search().catch((caught) => caught);
    expect(error).toBeInstanceOf(TlsCertificateError);
    expect(error).toMatchObject({ retryable: false, attempts: 1, code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    await Promise.all([client.close(), dispatcher.close()]);
  });
});
