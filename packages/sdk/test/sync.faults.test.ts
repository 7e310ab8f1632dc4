// Spec 4.4 and 7.4 under faults: a fault-injecting HTTPS proxy in front of the real API.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogClient,
  createCatalogClient,
  createFileCheckpointStore,
  SyncAbortedError,
  type SyncOptions,
  sync,
  TlsCertificateError,
} from '../src/index.ts';
import { type Fault, type FaultProxy, faults, startFaultProxy } from './support/fault-proxy.ts';
import { FAST_RETRY, memorySink } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let proxy: FaultProxy;
let client: CatalogClient;
let dir: string;
let counter = 0;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 450 });
  const tls = join(stack.dataDir, 'tls');
  proxy = await startFaultProxy({
    tls: {
      key: await readFile(join(tls, 'server-key.pem'), 'utf8'),
      cert: await readFile(join(tls, 'server.pem'), 'utf8'),
    },
    upstream: { url: stack.baseUrl, ca: stack.ca },
  });
  client = createCatalogClient({
    baseUrl: proxy.url,
    authUrl: stack.authUrl,
    ...(await stack.credentials()),
    ca: stack.ca,
    retry: FAST_RETRY,
    // Room for a real answer on a loaded machine; the slow fault below never answers within it.
    attemptTimeoutMs: 5_000,
    pacing: false,
  });
  dir = await mkdtemp(join(tmpdir(), 'sdk-faults-'));
  await client.products.search({ size: 100 }); // warm the token, the connections and the server's caches
});
afterEach(() => {
  proxy.rule(undefined);
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Faults for given search requests, counted from 1 from now on. */
function onSearch(plan: Record<number, Fault>): { sizes: () => number[] } {
  let n = 0;
  const sizes: number[] = [];
  proxy.rule(({ path }) => {
    if (!path.startsWith('/products/search')) return undefined;
    n += 1;
    sizes.push(Number(new URL(path, 'https://x').searchParams.get('size')));
    return plan[n];
  });
  return { sizes: () => sizes };
}

function setup(overrides: Partial<SyncOptions> = {}) {
  const store = createFileCheckpointStore(join(dir, `state-${++counter}.json`));
  const sink = memorySink();
  const options: SyncOptions = {
    client,
    checkpointStore: store,
    upsert: sink.upsert,
    ...overrides,
  };
  return { store, sink, run: (more: Partial<SyncOptions> = {}) => sync({ ...options, ...more }) };
}

const sorted = (rows: Map<string, unknown>) => [...rows.keys()].sort();

describe('spec 7.4 under faults: the pass completes and the copy equals the catalogue', () => {
  it('429 with and without Retry-After, 500, 503 SEARCH_INCOMPLETE, 504, reset and a slow response, once each', async () => {
    onSearch({
      1: faults.tooManyRequests(),
      3: faults.tooManyRequests('0.05'),
      5: faults.internal(),
      6: faults.searchIncomplete(),
      8: faults.searchTimeout(),
      10: faults.reset(),
      12: faults.slow(60_000),
    });
    const { sink, store, run } = setup();
    const report = await run();
    expect(report.retries).toBe(7);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
    expect((await store.load()).checkpoint).toBe(report.checkpoint);
  });

  it('spec 4.4 step 5: a 200 without a data array is not success (uncoded failure, retried)', async () => {
    onSearch({ 2: { kind: 'status', status: 200, body: { message: 'no data here' } } });
    const { sink, run } = setup();
    const report = await run();
    expect(report.retries).toBe(1);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
  });
});

type Page = { data: { id: string; name?: string }[]; syncToken: string | null };

describe('spec 4.4 steps 5 and 6 through the SDK against the real API', () => {
  it('step 5: an empty data array ends the pass, even with a syncToken, and the pass commits', async () => {
    const plan = onSearch({ 2: { kind: 'rewrite', rewrite: (body) => ({ ...(body as Page), data: [] }) } });
    const { sink, store, run } = setup();
    const report = await run();
    expect(plan.sizes()).toHaveLength(2); // no request after the empty page
    expect(report).toMatchObject({ pages: 2, productsUpserted: 100 });
    expect(sink.rows.size).toBe(100);
    expect((await store.load()).checkpoint).toBe(report.checkpoint);
  });

  it('step 6: products the live index serves twice in a pass are upserted by id: one record each, counted once', async () => {
    let first: Page | undefined;
    onSearch({
      1: {
        kind: 'rewrite',
        rewrite: (body) => {
          first = body as Page;
          return body;
        },
      },
      // Page 3 serves ten products of page 1 again, as a live index does when they change mid-pass.
      3: {
        kind: 'rewrite',
        rewrite: (body) => {
          const again = (first?.data ?? [])
            .slice(0, 10)
            .map((product) => ({ ...product, name: 'served again' }));
          return { ...(body as Page), data: [...again, ...(body as Page).data] };
        },
      },
    });
    const delivered: string[] = [];
    const { sink, run } = setup();
    const report = await run({
      upsert: (products) => {
        delivered.push(...products.map((product) => product.id));
        sink.upsert(products);
      },
    });
    const live = await stack.liveProductIds();
    expect(delivered).toHaveLength(live.length + 10); // the duplicates were delivered, as upserts
    expect(sorted(sink.rows)).toEqual(live); // and the copy keyed by id holds each product once
    expect(report.productsUpserted).toBe(live.length);
    const twice = first?.data[0]?.id ?? '';
    expect(sink.rows.get(twice)?.name).toBe('served again'); // the later copy won
  });
});

describe('spec 4.4 step 8 and step 4 under faults', () => {
  it('step 8: when a page fails twice, size is halved for the third attempt', async () => {
    const plan = onSearch({ 2: faults.searchIncomplete(), 3: faults.searchTimeout() });
    const { sink, run } = setup();
    await run();
    expect(plan.sizes().slice(0, 4)).toEqual([100, 100, 100, 50]);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
  });

  it('step 8: three failed attempts on one page abort the run; step 4: nothing committed, cursor not advanced; then a clean run resumes', async () => {
    const { sink, store, run } = setup();
    await store.commit('1971-01-01T00:00:00.000Z');
    onSearch({ 2: faults.internal(), 3: faults.reset(), 4: faults.searchIncomplete() });
    const error = await run().catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.retryable).toBe(true);
    expect(error.cause).toMatchObject({ status: 503, code: 'SEARCH_INCOMPLETE' });
    const after = await store.load();
    expect(after.checkpoint).toBe('1971-01-01T00:00:00.000Z');
    expect(after.progress?.syncToken).toBeDefined();
    expect(sink.rows.size).toBe(100); // only the first page was written

    proxy.rule(undefined);
    const report = await run();
    expect(report.resumed).toBe(true);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
    expect((await store.load()).checkpoint).toBe(report.checkpoint);
  });

  it('one retry policy: the runner takes the attempts per page and the backoff from the client', async () => {
    const twice = createCatalogClient({
      baseUrl: proxy.url,
      authUrl: stack.authUrl,
      ...(await stack.credentials()),
      ca: stack.ca,
      retry: { ...FAST_RETRY, maxAttempts: 2 },
      pacing: false,
    });
    const plan = onSearch({ 1: faults.internal(), 2: faults.internal(), 3: faults.internal() });
    const delays: number[] = [];
    const { run } = setup();
    const error = await run({ client: twice, onRetry: (event) => delays.push(event.delayMs) }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(plan.sizes()).toHaveLength(2);
    expect(delays.every((delay) => delay <= FAST_RETRY.capMs)).toBe(true);
    await twice.close();
  });

  it('step 8: at most three attempts per page, whatever maxAttempts asks', async () => {
    const plan = onSearch({ 1: faults.internal(), 2: faults.internal(), 3: faults.internal() });
    const { run } = setup();
    const error = await run({ retry: { maxAttempts: 10 } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(plan.sizes()).toEqual([100, 100, 50]);
  });

  it('a server certificate that does not verify aborts the pass at once: not retried, not retryable', async () => {
    const untrusting = createCatalogClient({
      baseUrl: proxy.url,
      authUrl: stack.authUrl,
      ...(await stack.credentials()),
      retry: FAST_RETRY,
      pacing: false,
    });
    const retries: unknown[] = [];
    const { store, run } = setup();
    const error = await run({ client: untrusting, onRetry: (event) => retries.push(event) }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.retryable).toBe(false);
    expect(error.cause).toBeInstanceOf(TlsCertificateError);
    expect(retries).toEqual([]);
    expect((await store.load()).checkpoint).toBeNull();
    await untrusting.close();
  });

  it('7.4: 403 aborts at once, not retried, and never commits', async () => {
    const { store, run } = setup();
    const plan = onSearch({ 2: faults.forbidden() });
    const error = await run().catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.retryable).toBe(false);
    expect(plan.sizes()).toHaveLength(2);
    expect((await store.load()).checkpoint).toBeNull();
  });

  it('7.4: an uncoded failure (500 without a code, resets) is retried a bounded number of times and never commits', async () => {
    const { store, run } = setup();
    const plan = onSearch({ 1: faults.internal(), 2: faults.reset(), 3: faults.internal() });
    const error = await run().catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(plan.sizes()).toHaveLength(3);
    expect(await store.load()).toEqual({ checkpoint: null, progress: null });
  });

  it('7.3 INVALID_SYNC_TOKEN mid-pass (stale cursor): the cursor is discarded and the pass restarts from the committed checkpoint', async () => {
    const { sink, store, run } = setup();
    const plan = onSearch({ 3: faults.staleCursor() });
    const report = await run();
    expect(report.restarts).toBe(1);
    const paths = plan.sizes();
    expect(paths.length).toBeGreaterThan(3);
    expect(
      proxy.seen.filter((r) => r.path.startsWith('/products/search')).at(-paths.length + 3)?.path,
    ).not.toContain('syncToken');
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
    expect((await store.load()).checkpoint).toBe(report.checkpoint);
  });

  it('a stale cursor on every restart aborts after the bounded number of restarts, without committing', async () => {
    const { store, run } = setup();
    proxy.rule(({ path }) => (path.includes('syncToken=') ? faults.staleCursor() : undefined));
    const error = await run().catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.report.restarts).toBe(2);
    expect((await store.load()).checkpoint).toBeNull();
  });
});
