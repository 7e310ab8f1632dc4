// The pipelined pass (the next page asked for while one is written) and the compact id set, against a
// scripted client: no server, so these run on Node 20 too.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type CheckpointStore,
  ForbiddenError,
  type Product,
  ServerError,
  SyncAbortedError,
  type SyncOptions,
  type SyncProgress,
  sync,
} from '../../src/index.ts';
import { IdMap, IdSet } from '../../src/sync/id-set.ts';

type Reply = ProductPage | Error;
interface ProductPage {
  readonly data: Product[];
  readonly syncToken: string | null;
}

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `id-${from + i}`);
const page = (productIds: string[], syncToken: string | null): ProductPage => ({
  data: productIds.map((id) => ({ id }) as Product),
  syncToken,
});

/** A client whose search answers with `replies` in order, recording each call and its signal. */
function scriptedClient(replies: (Reply | (() => Promise<Reply>))[]) {
  const calls: { syncToken: string | undefined; signal: AbortSignal | undefined }[] = [];
  const client = {
    retry: { maxAttempts: 3, baseMs: 1, capMs: 2, maxRetryAfterMs: 1000 },
    products: {
      search: async (query: { syncToken?: string }, options?: { signal?: AbortSignal }) => {
        calls.push({ syncToken: query.syncToken, signal: options?.signal });
        const next = replies.shift();
        if (next === undefined) throw new Error('no more scripted replies');
        const reply = typeof next === 'function' ? await next() : next;
        if (reply instanceof Error) throw reply;
        return { ...reply, pagination: { total: 0 } };
      },
    },
  } as unknown as SyncOptions['client'];
  return { client, calls };
}

/** A checkpoint store that logs every operation, and what `flush` had made durable at each. */
function loggingStore(log: string[]) {
  let progress: SyncProgress | null = null;
  let checkpoint: string | null = null;
  const store: CheckpointStore = {
    load: async () => ({ checkpoint, progress }),
    saveProgress: async (saved) => {
      progress = saved;
      log.push(`save ${saved.syncToken}`);
    },
    clearProgress: async () => {
      progress = null;
      log.push('clear');
    },
    commit: async (value) => {
      checkpoint = value;
      progress = null;
      log.push('commit');
    },
  };
  return { store, state: () => ({ checkpoint, progress }) };
}

describe('the pipelined pass', () => {
  it('asks for page N+1 before page N is written, one request at a time, and counts a product served twice once', async () => {
    const { client, calls } = scriptedClient([
      page(ids(3), 't1'),
      page([...ids(2, 2), 'id-9'], 't2'),
      page([], null),
    ]);
    const log: string[] = [];
    const { store } = loggingStore(log);
    const report = await sync({
      client,
      checkpointStore: store,
      progressIntervalMs: 0,
      upsert: (products) => {
        log.push(`upsert ${products.map((p) => p.id).join(',')} (requests so far ${calls.length})`);
      },
      flush: () => {
        log.push('flush');
      },
    });
    expect(calls.map((call) => call.syncToken)).toEqual([undefined, 't1', 't2']);
    expect(log).toEqual([
      'upsert id-0,id-1,id-2 (requests so far 2)',
      'flush',
      'save t1',
      'upsert id-2,id-3,id-9 (requests so far 3)',
      'flush',
      'save t2',
      'flush',
      'commit',
    ]);
    expect(report.productsUpserted).toBe(5);
    expect(report.pages).toBe(3);
  });

  it('a prefetched page that fails never lets the pass commit: the cursor saved is the one after the last page written', async () => {
    const { client } = scriptedClient([
      page(ids(2), 't1'),
      page(ids(2, 2), 't2'),
      new ForbiddenError({ message: 'revoked', status: 403 }),
    ]);
    const log: string[] = [];
    const { store, state } = loggingStore(log);
    const written: string[] = [];
    const error = await sync({
      client,
      checkpointStore: store,
      progressIntervalMs: 60_000,
      upsert: (products) => {
        written.push(...products.map((p) => p.id));
      },
      flush: () => {
        log.push('flush');
      },
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.cause).toBeInstanceOf(ForbiddenError);
    expect(written).toEqual(ids(4));
    // The first cursor is saved at once, the second (inside the interval) when the pass stops.
    expect(log).toEqual(['flush', 'save t1', 'flush', 'save t2']);
    expect(state().checkpoint).toBeNull();
    expect(state().progress?.syncToken).toBe('t2');
  });

  it('a page that fails three times after a prefetch aborts without committing', async () => {
    const failure = () => new ServerError({ message: 'boom', status: 500 });
    const { client, calls } = scriptedClient([page(ids(2), 't1'), failure(), failure(), failure()]);
    const log: string[] = [];
    const { store, state } = loggingStore(log);
    const error = await sync({ client, checkpointStore: store, upsert: () => undefined }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(calls.map((call) => call.syncToken)).toEqual([undefined, 't1', 't1', 't1']);
    expect(log).not.toContain('commit');
    expect(state()).toEqual({ checkpoint: null, progress: expect.objectContaining({ syncToken: 't1' }) });
  });

  it('a write that fails cancels the page fetched ahead and commits nothing', async () => {
    let release: (reply: Reply) => void = () => undefined;
    const { client, calls } = scriptedClient([
      page(ids(2), 't1'),
      () => new Promise<Reply>((resolve) => (release = resolve)),
    ]);
    const log: string[] = [];
    const { store, state } = loggingStore(log);
    const error = await sync({
      client,
      checkpointStore: store,
      upsert: () => {
        // The fetch ahead is under way while the page is written; the write fails.
        setTimeout(() => release(page(ids(2, 2), 't2')), 10);
        throw new Error('disk full');
      },
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(error.cause.message).toBe('disk full');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.signal?.aborted).toBe(true);
    expect(log).toEqual([]);
    expect(state()).toEqual({ checkpoint: null, progress: null });
  });

  it('a failing flush saves no cursor and commits nothing', async () => {
    const { client } = scriptedClient([page(ids(2), 't1'), page([], null)]);
    const log: string[] = [];
    const { store, state } = loggingStore(log);
    const error = await sync({
      client,
      checkpointStore: store,
      upsert: () => undefined,
      flush: () => {
        throw new Error('fsync failed');
      },
    }).catch((caught) => caught);
    expect(error).toBeInstanceOf(SyncAbortedError);
    expect(log).toEqual([]);
    expect(state()).toEqual({ checkpoint: null, progress: null });
  });
});

describe('IdSet: the ids a pass has seen, in bounded memory', () => {
  it('counts exactly what a Set of strings counts: UUIDs with repeats, other strings, the nil UUID, upper case apart', () => {
    const set = new IdSet();
    const reference = new Set<string>();
    const uuids = Array.from({ length: 20_000 }, () => randomUUID());
    const extras = [
      '00000000-0000-0000-0000-000000000000',
      'not-a-uuid',
      '',
      uuids[0]?.toUpperCase() ?? '',
      `${uuids[1]}x`,
      'g0000000-0000-0000-0000-000000000000',
    ];
    for (const id of [...uuids, ...extras, ...uuids.slice(0, 5000), ...extras]) {
      expect(set.add(id)).toBe(!reference.has(id));
      reference.add(id);
    }
    expect(set.size).toBe(reference.size);
    expect(set.size).toBe(20_000 + extras.length);
    for (const id of [...uuids.slice(0, 100), ...extras]) expect(set.has(id)).toBe(true);
    expect(set.has(randomUUID())).toBe(false);
    expect(set.has('other')).toBe(false);
  });

  it('keeps UUIDs that share all but one hex digit apart (every nibble counts)', () => {
    const set = new IdSet();
    const uuid = '01234567-89ab-cdef-0123-456789abcdef';
    set.add(uuid);
    let variants = 0;
    for (let i = 0; i < uuid.length; i += 1) {
      if (uuid[i] === '-') continue;
      const flipped = `${uuid.slice(0, i)}${uuid[i] === 'f' ? 'e' : 'f'}${uuid.slice(i + 1)}`;
      expect(set.add(flipped)).toBe(true);
      variants += 1;
    }
    expect(set.size).toBe(1 + variants);
    expect(variants).toBe(32);
    expect(set.has(uuid)).toBe(true);
  });
});

describe('IdMap: id → line number, for the NDJSON compaction', () => {
  it('answers what a Map answers, through growth, overwrites and ids that are not lowercase UUIDs', () => {
    const map = new IdMap();
    const reference = new Map<string, number>();
    const uuids = Array.from({ length: 10_000 }, () => randomUUID());
    const keys = [...uuids, '00000000-0000-0000-0000-000000000000', 'x', uuids[3]?.toUpperCase() ?? ''];
    let line = 0;
    for (const id of [...keys, ...uuids.slice(0, 3000), ...keys.slice(-3)]) {
      line += 1;
      expect(map.get(id)).toBe(reference.get(id));
      map.set(id, line);
      reference.set(id, line);
    }
    expect(map.size).toBe(reference.size);
    for (const [id, value] of reference) expect(map.get(id)).toBe(value);
    expect(map.get(randomUUID())).toBeUndefined();
  });
});
