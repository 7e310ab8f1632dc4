// Spec part 4.4 (with 7.4's uncoded failures and 8's overlap window): the incremental sync procedure as
// an integrator runs it, through the SDK's `sync()` with its file checkpoint store, against the demo
// catalogue of `pnpm start`. Failures are real: a page request that runs out of time, an API process
// killed in the middle of a pass.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Product } from '@catalog/contracts';
import {
  type CatalogClient,
  createFileCheckpointStore,
  EPOCH,
  InvalidSyncTokenError,
  SyncAbortedError,
  sync,
  TimeoutError,
} from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { archiveProduct, createProduct, replaceProduct, search, uniqueCode } from './support/catalogue.ts';
import { type Call, contractCall, expectConforms } from './support/contract.ts';
import { adminToken, createM2MClient, sdkClient } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let reader: string;
let client: CatalogClient;
let dir: string;
let files = 0;
const checkpointFile = () => {
  files += 1;
  return join(dir, `checkpoint-${files}.json`);
};

/** The downstream copy, keyed by id (step 6), with every upsert call recorded. */
function downstream() {
  const rows = new Map<string, Product>();
  let upserts = 0;
  return {
    rows,
    upserts: () => upserts,
    upsert(products: Product[]) {
      upserts += products.length;
      for (const product of products) {
        expectConforms('getProduct', 200, product);
        rows.set(product.id, product);
      }
    },
  };
}

type Search = CatalogClient['products']['search'];
/** The integrator's client with every search recorded, and optionally some made to fail for real. */
function recording(failWhen: (call: { page: number; attempt: number }) => boolean = () => false) {
  const calls: {
    size: number;
    updatedAfter: string;
    syncToken: string | undefined;
    failed: boolean;
    /** When the call was made (Date.now()). */
    at: number;
    /** The answer's syncToken: undefined until it arrives, absent when the call failed. */
    answered?: string | null;
  }[] = [];
  let page = 0;
  let attempt = 0;
  let lastToken: string | undefined | null = null;
  const searchWith: Search = (query = {}, options = {}) => {
    const token = query.syncToken;
    if (token !== lastToken) {
      page += 1;
      attempt = 0;
      lastToken = token;
    }
    attempt += 1;
    const fail = failWhen({ page, attempt });
    const entry: (typeof calls)[number] = {
      size: Number(query.size),
      updatedAfter: String(query.updatedAfter),
      syncToken: token,
      failed: fail,
      at: Date.now(),
    };
    calls.push(entry);
    // A real request with a 1 ms attempt time-out: the SDK's TimeoutError (no status, no code). A page
    // the server answers within that millisecond (its page cache, a kept-alive connection) beats the
    // timer, so such an answer is failed as the timer would have failed it: the attempt fails either way.
    return client.products
      .search(query, fail ? { ...options, attemptTimeoutMs: 1 } : options)
      .then((page) => {
        if (fail) throw new TimeoutError({ message: 'No answer within 1 ms', attempts: 1 });
        entry.answered = page.syncToken;
        return page;
      });
  };
  return { client: { products: { ...client.products, search: searchWith } }, calls };
}

const liveTotal = async () =>
  (await search(call, reader, { updatedAfter: EPOCH, size: 1 })).body.pagination.total;

beforeAll(async () => {
  stack = await startE2EStack();
  call = contractCall(stack);
  admin = await adminToken(stack);
  const credentials = await createM2MClient(stack, ['products.read']);
  reader = await stack.accessToken(credentials, ['products.read']);
  client = sdkClient(stack, credentials, { scopes: ['products.read'] });
  dir = await mkdtemp(join(tmpdir(), 'conformance-sync-'));
});
afterAll(async () => {
  await client?.close();
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('4.4 the sync procedure through the SDK', () => {
  let firstCheckpoint: string;
  let store: ReturnType<typeof createFileCheckpointStore>;
  const copy = downstream();

  it('[4.4 step 1][4.4 step 6] a first pass from the epoch (size 50) follows syncToken until null and copies the whole non-archived catalogue, upserting by id', async () => {
    const archived = await createProduct(call, admin, {
      productCode: uniqueCode('SYNCARCH'),
      name: 'Archived',
    });
    await archiveProduct(call, admin, archived.id);
    store = createFileCheckpointStore(checkpointFile());
    const recorder = recording();
    const report = await sync({
      client: recorder.client,
      checkpointStore: store,
      upsert: copy.upsert,
      pageSize: 50,
    });
    expect(recorder.calls[0]).toMatchObject({ updatedAfter: EPOCH, size: 50, syncToken: undefined });
    recorder.calls.forEach((entry, index) => {
      if (index > 0) expect(entry.syncToken).toBe(recorder.calls[index - 1]?.answered);
    });
    expect(recorder.calls.at(-1)?.answered).toBeNull();
    const total = await liveTotal();
    expect(total).toBeGreaterThan(4_000);
    expect(copy.rows.size).toBe(total);
    expect(copy.rows.has(archived.id)).toBe(false);
    expect(report).toMatchObject({ full: true, retries: 0, productsUpserted: copy.upserts() });
    expect(report.pages).toBe(recorder.calls.length);
    firstCheckpoint = report.checkpoint as string;
  });

  it('[4.4 step 3][8 Recommended overlap window] the checkpoint is captured before the pass starts and rewound by 900 seconds', async () => {
    const path = checkpointFile();
    // The runner's clock, injected: every reading is recorded, so the check needs no wall-clock margin.
    const readings: number[] = [];
    const now = () => {
      readings.push(Date.now());
      return readings.at(-1) as number;
    };
    const recorder = recording();
    const report = await sync({
      client: recorder.client,
      checkpointStore: createFileCheckpointStore(path),
      upsert: () => undefined,
      now,
    });
    const captured = readings[0] as number;
    expect(report.checkpoint).toBe(new Date(captured - 900_000).toISOString());
    expect(captured).toBeLessThanOrEqual(recorder.calls[0]?.at as number);
    expect((await createFileCheckpointStore(path).load()).checkpoint).toBe(report.checkpoint);
  });

  it('[4.4 step 2][4.4 step 7][4.4 step 6] an incremental pass from the stored checkpoint brings changes; an archived product silently drops out and stays downstream', async () => {
    const [first, second] = [...copy.rows.values()] as [Product, Product];
    const renamed = await replaceProduct(call, admin, first.id, {
      productCode: first.productCode as string,
      name: 'Renamed for the incremental pass',
    });
    await archiveProduct(call, admin, second.id);
    const added = await createProduct(call, admin, { productCode: uniqueCode('SYNCNEW'), name: 'Added' });
    const recorder = recording();
    const seen = new Set<string>();
    const report = await sync({
      client: recorder.client,
      checkpointStore: store,
      upsert: (products) => {
        for (const product of products) seen.add(product.id);
        copy.upsert(products);
      },
    });
    expect(report.full).toBe(false);
    expect(report.updatedAfter).toBe(firstCheckpoint);
    expect(recorder.calls[0]?.updatedAfter).toBe(firstCheckpoint);
    // Step 2: the pass loops with syncToken (each call sends the previous answer's) until it is null.
    expect(recorder.calls[0]?.syncToken).toBeUndefined();
    recorder.calls.forEach((entry, index) => {
      if (index > 0) expect(entry.syncToken).toBe(recorder.calls[index - 1]?.answered);
    });
    expect(recorder.calls.at(-1)?.answered).toBeNull();
    expect(copy.rows.get(renamed.id)?.name).toBe('Renamed for the incremental pass');
    expect(copy.rows.has(added.id)).toBe(true);
    expect(seen.has(second.id)).toBe(false);
    expect(copy.rows.has(second.id)).toBe(true);
    expect(Date.parse(report.checkpoint as string)).toBeGreaterThan(Date.parse(firstCheckpoint));
  });

  it('[4.4 step 8] a page that fails twice is retried at half the size, and the pass completes', async () => {
    const recorder = recording(({ page, attempt }) => page === 3 && attempt <= 2);
    const rows = downstream();
    const retries: { attempt: number; pageSize: number }[] = [];
    const report = await sync({
      client: recorder.client,
      checkpointStore: createFileCheckpointStore(checkpointFile()),
      upsert: rows.upsert,
      retry: { baseMs: 5, capMs: 20 },
      onRetry: (event) => retries.push({ attempt: event.attempt, pageSize: event.pageSize }),
    });
    const pageThree = recorder.calls.filter((entry) => entry.syncToken === recorder.calls[2]?.syncToken);
    expect(pageThree.map((entry) => [entry.size, entry.failed])).toEqual([
      [100, true],
      [100, true],
      [50, false],
    ]);
    expect(retries).toEqual([
      { attempt: 1, pageSize: 100 },
      { attempt: 2, pageSize: 50 },
    ]);
    expect(report.retries).toBe(2);
    expect(rows.rows.size).toBe(await liveTotal());
  });

  it('[4.4 step 8][4.4 step 4][7.4 uncoded failure] a page gets at most three attempts, then the run aborts without committing or advancing the cursor', async () => {
    const path = checkpointFile();
    const checkpointStore = createFileCheckpointStore(path);
    await checkpointStore.commit('2001-01-01T00:00:00.000Z');
    const recorder = recording(({ page }) => page === 3);
    const failure = await sync({
      client: recorder.client,
      checkpointStore,
      upsert: () => undefined,
      retry: { baseMs: 5, capMs: 20 },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SyncAbortedError);
    expect((failure as SyncAbortedError).retryable).toBe(true);
    expect(recorder.calls.filter((entry) => entry.failed)).toHaveLength(3);
    expect(recorder.calls).toHaveLength(5);
    const state = await checkpointStore.load();
    expect(state.checkpoint).toBe('2001-01-01T00:00:00.000Z');
    // The saved cursor is the one of page 3, never beyond the page that failed.
    expect(state.progress?.syncToken).toBe(recorder.calls[2]?.syncToken);
  });

  it('[4.4 step 4][7.4 uncoded failure] an API killed in the middle of a pass: bounded retries, no commit; after a restart the next run resumes and commits', async () => {
    const path = checkpointFile();
    const checkpointStore = createFileCheckpointStore(path);
    const rows = downstream();
    let pages = 0;
    const failure = await sync({
      client,
      checkpointStore,
      retry: { baseMs: 5, capMs: 20 },
      upsert: async (products) => {
        rows.upsert(products);
        pages += 1;
        if (pages === 2) await stack.kill('api');
      },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SyncAbortedError);
    expect((failure as SyncAbortedError).report.retries).toBe(2);
    const state = await checkpointStore.load();
    expect(state.checkpoint).toBeNull();
    expect(typeof state.progress?.syncToken).toBe('string');
    await stack.restart('api');
    const resumed = await sync({ client, checkpointStore, upsert: rows.upsert });
    expect(resumed.resumed).toBe(true);
    expect(resumed.checkpoint).toBe(state.progress?.nextCheckpoint);
    expect(rows.rows.size).toBe(await liveTotal());
  });

  it('[4.4 step 5][7.4 other 4xx][7.3 INVALID_SYNC_TOKEN] a stale cursor is INVALID_SYNC_TOKEN: never retried, the cursor discarded and the pass restarted from the last committed checkpoint', async () => {
    const stale = await client.products
      .search({ syncToken: 'stale-cursor-from-another-day' })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(InvalidSyncTokenError);
    expect((stale as InvalidSyncTokenError).attempts).toBe(1);
    expect((stale as InvalidSyncTokenError).retryable).toBe(false);
    expect((stale as InvalidSyncTokenError).body).not.toHaveProperty('data');
    const checkpointStore = createFileCheckpointStore(checkpointFile());
    await checkpointStore.commit('2002-02-02T00:00:00.000Z');
    await checkpointStore.saveProgress({
      updatedAfter: '2002-02-02T00:00:00.000Z',
      nextCheckpoint: '2003-03-03T00:00:00.000Z',
      syncToken: 'stale-cursor-from-another-day',
      pageSize: 100,
      savedAt: new Date().toISOString(),
    });
    const rows = downstream();
    const report = await sync({ client, checkpointStore, upsert: rows.upsert });
    expect(report.restarts).toBe(1);
    expect(report.updatedAfter).toBe('2002-02-02T00:00:00.000Z');
    expect(rows.rows.size).toBe(await liveTotal());
  });
});
