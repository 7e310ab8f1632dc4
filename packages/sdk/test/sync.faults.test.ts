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
    attemptTimeoutMs: 1_000,
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
    backoff: { baseMs: 5, capMs: 20 },
    ...overrides,
  };
  return { store, sink, run: () => sync(options) };
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
      12: faults.slow(1_500),
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
