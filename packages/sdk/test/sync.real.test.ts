// The incremental sync of spec 4.4 against both real servers over TLS, with the JSON-file checkpoint store.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type CatalogClient,
  createFileCheckpointStore,
  EPOCH,
  SyncAbortedError,
  sync,
} from '../src/index.ts';
import { clientFor, memorySink } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let client: CatalogClient;
let dir: string;
let counter = 0;
const checkpointPath = () => join(dir, `state-${++counter}.json`);

beforeAll(async () => {
  stack = await startStack({ demoProducts: 450 });
  client = await clientFor(stack);
  dir = await mkdtemp(join(tmpdir(), 'sdk-sync-'));
});
afterAll(async () => {
  await client?.close();
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

const sorted = (rows: Map<string, unknown>) => [...rows.keys()].sort();

describe('spec 4.4', () => {
  it('step 1: a first pass from the epoch copies the whole non-archived catalogue and commits', async () => {
    const path = checkpointPath();
    const sink = memorySink();
    const searches: string[] = [];
    const started = Date.now();
    const report = await sync({
      client: {
        products: {
          ...client.products,
          search: (query, options) => {
            searches.push(String(query?.updatedAfter));
            return client.products.search(query, options);
          },
        },
      },
      checkpointStore: createFileCheckpointStore(path),
      upsert: sink.upsert,
    });
    expect(searches[0]).toBe(EPOCH);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
    expect(report).toMatchObject({
      full: true,
      resumed: false,
      productsUpserted: sink.rows.size,
      retries: 0,
    });
    expect(report.pages).toBe(Math.ceil(sink.rows.size / 100) + (sink.rows.size % 100 === 0 ? 1 : 0));
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toMatchObject({ version: 1, checkpoint: report.checkpoint, progress: null });
    // Step 3: captured before the pass, rewound by the 900 s overlap window.
    const committedAt = Date.parse(report.checkpoint ?? '');
    expect(committedAt).toBeGreaterThanOrEqual(started - 900_000);
    expect(committedAt).toBeLessThanOrEqual(started - 900_000 + 1_000);
  });

  it('step 2: an incremental pass from the stored checkpoint brings the updates; step 7: nothing is deleted', async () => {
    const path = checkpointPath();
    const sink = memorySink();
    const store = createFileCheckpointStore(path);
    const first = await sync({ client, checkpointStore: store, upsert: sink.upsert, overlapSeconds: 0 });
    // The writes below must be stamped after the checkpoint: wait until this clock (the store's) has passed it.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(first.checkpoint ?? '')), {
      interval: 5,
    });
    const [a, b, c] = [...sink.rows.keys()];
    const renamed = await stack.store.products.get(a ?? '');
    await stack.store.products.upsertMany([
      { id: a ?? '', productCode: renamed?.productCode ?? 'X', name: 'Renamed by the incremental test' },
      { productCode: 'SDK-NEW-1', name: 'Created by the incremental test' },
    ]);
    await stack.store.products.archive(b ?? '');
    const second = await sync({ client, checkpointStore: store, upsert: sink.upsert, overlapSeconds: 0 });
    expect(second.updatedAfter).toBe(first.checkpoint);
    expect(second.full).toBe(false);
    expect(second.productsUpserted).toBe(2);
    expect(sink.rows.get(a ?? '')?.name).toBe('Renamed by the incremental test');
    expect([...sink.rows.values()].some((product) => product.productCode === 'SDK-NEW-1')).toBe(true);
    expect(sink.rows.has(b ?? '')).toBe(true); // archived upstream, kept downstream
    expect(sink.rows.has(c ?? '')).toBe(true);
    expect(Date.parse(second.checkpoint ?? '')).toBeGreaterThan(Date.parse(first.checkpoint ?? ''));
  });

  it('step 4: a pass that fails does not commit; the saved cursor lets the next run resume (crash and resume)', async () => {
    const path = checkpointPath();
    const store = createFileCheckpointStore(path);
    const sink = memorySink();
    let pages = 0;
    const crash = await sync({
      client,
      checkpointStore: store,
      upsert: (products) => {
        pages += 1;
        if (pages === 3) throw new Error('downstream crashed');
        sink.upsert(products);
      },
    }).catch((error) => error);
    expect(crash).toBeInstanceOf(SyncAbortedError);
    expect(crash.report.pages).toBe(2);
    const state = await store.load();
    expect(state.checkpoint).toBeNull();
    expect(state.progress?.updatedAfter).toBe(EPOCH);
    expect(typeof state.progress?.syncToken).toBe('string');

    const resumed = await sync({ client, checkpointStore: store, upsert: sink.upsert });
    expect(resumed.resumed).toBe(true);
    expect(resumed.checkpoint).toBe(state.progress?.nextCheckpoint);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
    expect((await store.load()).progress).toBeNull();
  });

  it('INVALID_SYNC_TOKEN (a stale saved cursor) discards the cursor and restarts from the last committed checkpoint', async () => {
    const path = checkpointPath();
    const store = createFileCheckpointStore(path);
    await store.commit('2000-01-01T00:00:00.000Z');
    await store.saveProgress({
      updatedAfter: '2000-01-01T00:00:00.000Z',
      nextCheckpoint: '2001-01-01T00:00:00.000Z',
      syncToken: 'a-stale-cursor',
      pageSize: 100,
      savedAt: new Date().toISOString(),
    });
    const sink = memorySink();
    const report = await sync({ client, checkpointStore: store, upsert: sink.upsert });
    expect(report.restarts).toBe(1);
    expect(report.updatedAfter).toBe('2000-01-01T00:00:00.000Z');
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
  });

  it('--full ignores the stored checkpoint and starts from the epoch', async () => {
    const store = createFileCheckpointStore(checkpointPath());
    await store.commit(new Date().toISOString());
    const sink = memorySink();
    const report = await sync({ client, checkpointStore: store, upsert: sink.upsert, full: true });
    expect(report.updatedAfter).toBe(EPOCH);
    expect(sorted(sink.rows)).toEqual(await stack.liveProductIds());
  });

  it('a dry run reads everything but neither saves progress nor commits', async () => {
    const path = checkpointPath();
    const store = createFileCheckpointStore(path);
    const report = await sync({ client, checkpointStore: store, upsert: () => undefined, dryRun: true });
    expect(report.checkpoint).toBeNull();
    expect(await store.load()).toEqual({ checkpoint: null, progress: null });
  });
});
