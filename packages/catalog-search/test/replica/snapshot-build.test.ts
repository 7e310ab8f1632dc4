import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ChangeFeed,
  ensureDemoCatalogue,
  type RecordStore,
  type ReplicaBuildProgress,
  type SnapshotBatch,
} from '@catalog/store';
import { openPostgresRecordStore } from '@catalog/store/postgres';
import { aProduct, TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSqliteReplicaSearch,
  type SearchReplica,
} from '../../src/engines/sqlite-replica/open-sqlite-replica-search.ts';
import { FeedFollower } from '../../src/follower/feed-follower.ts';
import { freshSchema } from '../support/postgres-factory.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';
import { searchAnswers } from './search-answers.ts';

const SECRET = new Uint8Array(32).fill(7);
/** Small parts, so that every catalogue here is loaded in several. */
const SNAPSHOT_BATCH = 64;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function postgresRecords(): Promise<RecordStore> {
  const { url, schema, drop } = await freshSchema();
  const records = await openPostgresRecordStore({ url, schema, maxConnections: 4 });
  cleanups.push(async () => {
    await records.close();
    await drop();
  });
  return records;
}

/**
 * The generated catalogue (relations, channel values, brands), then what a live catalogue adds:
 * archives, a brand rename copied onto its products, per-channel values changed, a relation to a
 * product written after its owner, a brand without products.
 */
async function writeCatalogue(records: RecordStore, products = 400): Promise<void> {
  await ensureDemoCatalogue(records, { products, seed: 'replica-snapshot' });
  const some = (await records.products.listActive({ limit: 12 })).products;
  for (const product of some.slice(0, 3)) await records.products.archive(product.id);
  const brand = await records.brands.getBySlug(some[4]?.brandSlug as string);
  await records.brands.update(brand?.id as string, { name: `${brand?.name} Renamed` });
  const visible = some[5]?.id as string;
  await records.products.replace(
    visible,
    aProduct({
      id: visible,
      name: 'Copper channel only',
      webVisibility: { outlet: true, 'main-site': false },
    }),
  );
  const later = aProduct({ name: 'Copper part written later' });
  await records.products.create(
    aProduct({
      name: 'Copper kit',
      relatedProducts: [
        { productId: later.id as string, relationType: 'required', qty: 3, note: 'later' },
        { productId: some[6]?.id as string, relationType: 'optional', qty: 1 },
      ],
    }),
  );
  await records.products.create(later);
  await records.brands.create({ name: 'Torson Spare' });
}

interface WatchedFeed extends ChangeFeed {
  calls: { snapshots: number; recordReads: number };
}

/** The source's feed, counting how a replica read it; `between` runs after each snapshot part is taken. */
function watched(
  feed: ChangeFeed,
  between: (part: number) => Promise<void> = async () => undefined,
): WatchedFeed {
  const calls = { snapshots: 0, recordReads: 0 };
  return {
    calls,
    read: (after, limit) => feed.read(after, limit),
    head: () => feed.head(),
    origin: () => feed.origin(),
    readRecords: (after, limit) => {
      calls.recordReads += 1;
      return feed.readRecords(after, limit);
    },
    async *readSnapshot(batchSize): AsyncGenerator<SnapshotBatch> {
      calls.snapshots += 1;
      let part = 0;
      for await (const batch of feed.readSnapshot(batchSize)) {
        yield batch;
        await between(part);
        part += 1;
      }
    },
  };
}

async function openReplica(feed: ChangeFeed, dataDir = tempDataDir()): Promise<SearchReplica> {
  const replica = await openSqliteReplicaSearch(
    {
      databasePath: join(dataDir, 'replica.sqlite'),
      searchWorkers: 1,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
      syncTokenSecret: SECRET,
    },
    { origin: await feed.origin(), head: await feed.head() },
  );
  cleanups.push(async () => {
    await replica.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return replica;
}

/** A replica of `feed` built the old way, by replaying the feed from its start. */
async function replayedReplica(feed: ChangeFeed): Promise<SearchReplica> {
  const replica = await openReplica(feed);
  const { appliedSequence, apply } = replica.target;
  await new FeedFollower(feed, { appliedSequence, apply }).catchUp();
  return replica;
}

describe('a new search replica is built from a snapshot of its source', () => {
  it("answers every query as the source's own embedded engine does: ids, order, totals, sort columns, aggregations, relations, channels", async () => {
    const source = await sqliteStore({ syncTokenSecret: SECRET, searchWorkers: 1 });
    cleanups.push(() => source.dispose());
    await writeCatalogue(source.store);
    const feed = watched(source.store.changes);
    const replica = await openReplica(feed);
    await new FeedFollower(feed, replica.target, { snapshotBatchSize: SNAPSHOT_BATCH }).catchUp();
    expect(feed.calls).toEqual({ snapshots: 1, recordReads: 0 });
    expect(await replica.target.appliedSequence()).toBe(await source.store.changes.head());
    expect(await searchAnswers(replica.search)).toEqual(await searchAnswers(source.store));
  });

  it('on PostgreSQL, answers every query as a replica that replayed the whole feed does', async () => {
    const records = await postgresRecords();
    await writeCatalogue(records);
    const feed = watched(records.changes);
    const built = await openReplica(feed);
    await new FeedFollower(feed, built.target, { snapshotBatchSize: SNAPSHOT_BATCH }).catchUp();
    expect(feed.calls).toEqual({ snapshots: 1, recordReads: 0 });
    expect(await built.target.appliedSequence()).toBe(await records.changes.head());
    const replayed = await replayedReplica(records.changes);
    expect(await searchAnswers(built.search)).toEqual(await searchAnswers(replayed.search));
  });

  it('writes committed while the snapshot loads reach the replica from the feed after it, as do later ones', async () => {
    const records = await postgresRecords();
    await writeCatalogue(records, 300);
    const [renamed, archived] = (await records.products.listActive({ limit: 2 })).products;
    let headAtSnapshot = 0;
    const feed = watched(records.changes, async (part) => {
      if (part !== 0) return;
      headAtSnapshot = await records.changes.head();
      await records.products.replace(
        renamed?.id as string,
        aProduct({ id: renamed?.id as string, productCode: 'DURING-R', name: 'Renamed during the build' }),
      );
      await records.products.archive(archived?.id as string);
      await records.webChannels.create({ slug: 'late-channel', name: 'Late channel' });
      await records.products.create(
        aProduct({ productCode: 'DURING-1', webVisibility: { 'late-channel': true } }),
      );
    });
    const replica = await openReplica(feed);
    const follower = new FeedFollower(feed, replica.target, { snapshotBatchSize: SNAPSHOT_BATCH });
    await follower.catchUp();
    expect(feed.calls.snapshots).toBe(1);
    expect(feed.calls.recordReads).toBeGreaterThan(0);
    expect(headAtSnapshot).toBeGreaterThan(0);
    await records.products.create(aProduct({ productCode: 'AFTER-1' }));
    await follower.catchUp();
    expect(await replica.target.appliedSequence()).toBe(await records.changes.head());
    for (const code of ['DURING-R', 'DURING-1', 'AFTER-1']) {
      expect(
        (await replica.search.productSearch.search({ q: code })).products.map((p) => p.productCode),
      ).toEqual([code]);
    }
    const replayed = await replayedReplica(records.changes);
    expect(await searchAnswers(replica.search)).toEqual(await searchAnswers(replayed.search));
  });

  it('an interrupted build leaves the replica new and empty, and the next start builds it whole', async () => {
    const records = await postgresRecords();
    await writeCatalogue(records, 300);
    const failing = watched(records.changes, async (part) => {
      if (part === 2) throw new Error('source lost mid-build');
    });
    const dataDir = tempDataDir();
    const first = await openSqliteReplicaSearch(
      {
        databasePath: join(dataDir, 'replica.sqlite'),
        searchWorkers: 1,
        searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
        syncTokenSecret: SECRET,
      },
      { origin: await records.changes.origin(), head: await records.changes.head() },
    );
    await expect(
      new FeedFollower(failing, first.target, { snapshotBatchSize: SNAPSHOT_BATCH }).catchUp(),
    ).rejects.toThrow('source lost mid-build');
    expect(await first.target.appliedSequence()).toBe(0);
    expect((await first.search.productSearch.search({ includeArchived: true })).total).toBe(0);
    await first.close();

    const feed = watched(records.changes);
    const again = await openReplica(feed, dataDir);
    await new FeedFollower(feed, again.target, { snapshotBatchSize: SNAPSHOT_BATCH }).catchUp();
    expect(feed.calls).toEqual({ snapshots: 1, recordReads: 0 });
    const replayed = await replayedReplica(records.changes);
    expect(await searchAnswers(again.search)).toEqual(await searchAnswers(replayed.search));
  });
});

describe("a replica's first catch-up reports its progress", () => {
  it('announces its start, each phase with the products the snapshot holds, and its end; between them, products applied with a rate and an expected end; never more often than its interval', async () => {
    const source = await sqliteStore({ syncTokenSecret: SECRET, searchWorkers: 1 });
    cleanups.push(() => source.dispose());
    await ensureDemoCatalogue(source.store, { products: 300, seed: 'replica-progress' });
    const every: ReplicaBuildProgress[] = [];
    const everyFollower = new FeedFollower(
      source.store.changes,
      (await openReplica(source.store.changes)).target,
      {
        snapshotBatchSize: SNAPSHOT_BATCH,
        progressIntervalMs: 0,
        onProgress: (progress) => every.push(progress),
      },
    );
    expect(everyFollower.buildProgress()).toBeNull();
    await everyFollower.catchUp();
    const loading = every.filter((progress) => progress.phase === 'snapshot-loading');
    // 300 products in parts of 64: one report a part.
    expect(loading.map((progress) => progress.applied)).toEqual([64, 128, 192, 256, 300]);
    for (const progress of loading) expect(progress).toMatchObject({ unit: 'products', total: 300 });
    // After the phase's first part, its pace is known: products per second and when it should end.
    for (const progress of loading.slice(1)) {
      expect(progress.perSecond).toBeGreaterThan(0);
      expect(Date.parse(progress.expectedEndAt as string)).toBeGreaterThanOrEqual(
        Date.parse(progress.startedAt),
      );
    }
    expect(every.at(-1)).toMatchObject({ state: 'built', phase: 'done', applied: 300, total: 300 });
    expect(everyFollower.built).toBe(true);

    // With an interval no build here reaches, only the start, the phase changes and the end.
    const bounded: ReplicaBuildProgress[] = [];
    await new FeedFollower(source.store.changes, (await openReplica(source.store.changes)).target, {
      snapshotBatchSize: SNAPSHOT_BATCH,
      progressIntervalMs: 3_600_000,
      onProgress: (progress) => bounded.push(progress),
    }).catchUp();
    expect(bounded.map((progress) => [progress.state, progress.phase])).toEqual([
      ['building', 'feed'],
      ['building', 'snapshot-loading'],
      ['building', 'snapshot-indexing'],
      ['built', 'done'],
    ]);
  });
});
