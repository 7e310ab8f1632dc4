import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CatalogStore,
  type ProductRecord,
  type RecordStore,
  SearchIncompleteError,
  ValidationError,
} from '@catalog/store';
import { openPostgresRecordStore } from '@catalog/store/postgres';
import { aProduct, TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSqliteReplicaSearch,
  type SearchReplica,
} from '../../src/engines/sqlite-replica/open-sqlite-replica-search.ts';
import { FeedFollower } from '../../src/follower/feed-follower.ts';
import { replicatedSearch } from '../../src/follower/replicated-search.ts';
import { openPostgresReplica } from '../support/open-postgres-replica.ts';
import { freshSchema } from '../support/postgres-factory.ts';

const SECRET = new Uint8Array(32).fill(7);
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Deployment {
  url: string;
  open: (options?: { pollMs?: number; dataDir?: string; inBackground?: boolean }) => Promise<CatalogStore>;
}

async function deployment(): Promise<Deployment> {
  const { url, schema, drop } = await freshSchema();
  cleanups.push(drop);
  const schemaUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url: schemaUrl,
    open: async (options = {}) => {
      const dataDir = options.dataDir ?? tempDataDir();
      const store = await openPostgresReplica(
        { url: schemaUrl, dataDir },
        {
          searchWorkers: 1,
          searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
          freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
          syncTokenSecret: SECRET,
          replicaPollIntervalMs: options.pollMs ?? 100,
          ...(options.inBackground === undefined ? {} : { replicaInBackground: options.inBackground }),
        },
      );
      cleanups.push(async () => {
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      });
      return store;
    },
  };
}

const byId = (records: readonly ProductRecord[]) => [...records].sort((a, b) => a.id.localeCompare(b.id));

describe('search replica of a PostgreSQL deployment', () => {
  it('finds a product written on the source at the next search, without waiting for a poll', async () => {
    const store = await (await deployment()).open({ pollMs: 3_600_000 });
    const product = await store.products.create(aProduct({ productCode: 'RYW-1', name: 'Read your writes' }));
    const page = await store.productSearch.search({ q: 'RYW-1' });
    expect(page.products.map((hit) => hit.id)).toEqual([product.id]);
  });

  it("holds the source's records field for field: seq, times, brand, visibility and relations both ways", async () => {
    const store = await (await deployment()).open();
    await store.webChannels.create({ slug: 'trade', name: 'Trade' });
    const later = aProduct();
    // A relation to a product that does not exist yet: shown once that product is written.
    const kit = await store.products.create(
      aProduct({
        brandName: 'Acme',
        webVisibility: { trade: true },
        relatedProducts: [{ productId: later.id as string, relationType: 'optional', qty: 1, note: 'spare' }],
      }),
    );
    const part = await store.products.create(
      aProduct({
        brandName: 'Bolt & Co',
        relatedProducts: [{ productId: kit.id, relationType: 'required', qty: 2 }],
      }),
    );
    await store.products.create(later);
    const archived = await store.products.create(aProduct({ brandName: 'Acme', displayOnWeb: true }));
    await store.products.archive(archived.id);
    const acme = await store.brands.getBySlug('acme');
    await store.brands.update(acme?.id as string, { name: 'Acme Tools', slug: 'acme-tools' });

    const ids = [kit.id, part.id, later.id as string, archived.id];
    const replica = await store.productSearch.search({ includeArchived: true, size: 100 });
    expect(byId(replica.products)).toEqual(byId(await store.products.getMany(ids)));
    expect(replica.products.find((hit) => hit.id === kit.id)?.relatedProducts).toEqual([
      expect.objectContaining({ productId: later.id, note: 'spare' }),
      expect.objectContaining({ productId: part.id, source: 'reverse' }),
    ]);
    const brands = await store.brandSearch.search({ q: 'acme' });
    expect(brands.brands.map((brand) => brand.slug)).toEqual(['acme-tools']);
  });

  it('has a first-start load in its replica, whole, when loadIfEmpty resolves', async () => {
    const store = await (await deployment()).open({ pollMs: 3_600_000 });
    const products = Array.from({ length: 2500 }, () => aProduct());
    expect(await store.loadIfEmpty({ webChannels: [], brands: [], products: [products] })).toBe(true);
    const page = await store.productSearch.search({ size: 1 });
    expect(page.total).toBe(2500);
  });

  it('refuses to write text PostgreSQL cannot store (U+0000), and finds nothing by such a value', async () => {
    const store = await (await deployment()).open();
    await expect(store.products.create(aProduct({ name: 'nul\u0000name' }))).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(await store.products.get('id\u0000')).toBeUndefined();
    expect(await store.clients.get('client\u0000')).toBeUndefined();
    expect(await store.products.count()).toBe(0);
  });

  it("two instances' replicas serve the same pages and accept each other's syncTokens", async () => {
    const shared = await deployment();
    const first = await shared.open();
    const second = await shared.open();
    await first.products.upsertMany(Array.from({ length: 25 }, () => aProduct()));
    const query = { updatedAfter: '1970-01-01T00:00:00Z', size: 10 };
    const oneInstance: string[] = [];
    const alternating: string[] = [];
    for (const [instances, ids] of [
      [[first, first, first], oneInstance],
      [[first, second, first], alternating],
    ] as const) {
      let page = await instances[0].productSearch.search(query);
      ids.push(...page.products.map((hit) => hit.id));
      for (let i = 1; page.syncToken !== null; i += 1) {
        page = await (instances[i % instances.length] as CatalogStore).productSearch.search({
          ...query,
          syncToken: page.syncToken,
        });
        ids.push(...page.products.map((hit) => hit.id));
      }
    }
    expect(oneInstance).toHaveLength(25);
    expect(alternating).toEqual(oneInstance);
  });

  it("rebuilds an instance's replica that was built from another database's feed, from that database's snapshot", async () => {
    const dataDir = tempDataDir();
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const before = await (await deployment()).open({ dataDir });
    await before.products.create(aProduct({ productCode: 'OLD-DB-1' }));
    expect((await before.productSearch.search({ q: 'OLD-DB-1' })).products).toHaveLength(1);
    await before.close();
    const other = await deployment();
    const records = await openPostgresRecordStore({ url: other.url });
    await records.products.upsertMany(
      Array.from({ length: 30 }, (_, i) => aProduct({ productCode: `NEW-DB-${i}` })),
    );
    await records.close();
    const after = await other.open({ dataDir });
    expect((await after.productSearch.search({ q: 'OLD-DB-1' })).products).toEqual([]);
    expect(
      (await after.productSearch.search({ q: 'NEW-DB-7' })).products.map((hit) => hit.productCode),
    ).toEqual(['NEW-DB-7']);
    expect((await after.productSearch.search({})).total).toBe(30);
  });

  describe('when the source cannot be read', () => {
    let records: RecordStore;
    let replica: SearchReplica;

    it('refuses a text query with SEARCH_INCOMPLETE and serves a browse from the replica as it is', async () => {
      const { url } = await deployment();
      records = await openPostgresRecordStore({ url });
      const dataDir = tempDataDir();
      replica = await openSqliteReplicaSearch(
        {
          databasePath: join(dataDir, 'replica.sqlite'),
          searchWorkers: 1,
          searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
        },
        { origin: await records.changes.origin(), head: await records.changes.head() },
      );
      cleanups.push(async () => {
        await replica.close();
        rmSync(dataDir, { recursive: true, force: true });
      });
      const follower = new FeedFollower(records.changes, replica.target);
      const search = replicatedSearch(replica.search, follower, records.changes, { freshnessTimeoutMs: 200 });
      const product = await records.products.create(aProduct({ productCode: 'GONE-1' }));
      expect((await search.productSearch.search({ q: 'GONE-1' })).products.map((hit) => hit.id)).toEqual([
        product.id,
      ]);
      await records.close();
      await expect(search.productSearch.search({ q: 'GONE-1' })).rejects.toBeInstanceOf(
        SearchIncompleteError,
      );
      await expect(search.brandSearch.search({ q: 'acme' })).rejects.toBeInstanceOf(SearchIncompleteError);
      expect((await search.productSearch.search({})).products.map((hit) => hit.id)).toEqual([product.id]);
      await follower.stop();
    });
  });
});

describe('a replica built in the background (the API: replicaInBackground)', () => {
  it('a new replica: the store opens before it is built and answers once it is; a kept replica is brought up to date before the store opens, as without the option', async () => {
    const source = await deployment();
    const writer = await source.open();
    await writer.products.create(aProduct({ productCode: 'BG-1', name: 'Background one' }));
    const dataDir = tempDataDir();
    const first = await source.open({ dataDir, inBackground: true });
    expect(first.searchReplicaProgress?.()).toMatchObject({ state: 'building' });
    // Bounded by a count of polls, not a duration the build must fit in.
    let built = false;
    for (let poll = 0; poll < 2400 && !built; poll += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      built = first.searchReplicaProgress?.()?.state === 'built';
    }
    expect(built).toBe(true);
    expect((await first.productSearch.search({ q: 'BG-1' })).products).toHaveLength(1);
    await first.close();

    await writer.products.create(aProduct({ productCode: 'BG-2', name: 'Written while it was down' }));
    const kept = await source.open({ dataDir, inBackground: true, pollMs: 3_600_000 });
    expect(kept.searchReplicaProgress?.()).toMatchObject({ state: 'built' });
    expect((await kept.productSearch.search({})).products.map((hit) => hit.productCode).sort()).toEqual([
      'BG-1',
      'BG-2',
    ]);
  });
});
