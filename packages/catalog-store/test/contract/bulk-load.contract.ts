import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AuditContext,
  type Change,
  type ProductInput,
  type RecordStore,
  ValidationError,
} from '../../src/index.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../../src/seed/generate-catalogue.ts';
import type { RecordStoreFactory, RecordStoreHandle, StoreLocation } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { FIRST_START, firstStartBatches, firstStartSnapshot } from '../fixtures/first-start-snapshot.ts';

// ProductStore.bulkLoad must commit exactly what upsertMany commits for the same batches, and
// bulkLoadAll what bulkLoad commits batch by batch (into an empty catalogue: what one upsertMany of
// every product commits). Two stores take the same batches, one through each path, and are compared
// through the ports (records, brands, change feed) and through what the engine stores besides.

/**
 * An engine under the contract: its stores, and what it keeps beyond what the ports show, which a
 * bulk path writes its own way (set-based derived rows, indexes built after the rows).
 */
export interface BulkLoadEngine<H extends RecordStoreHandle> {
  /** A fresh, empty, migrated store per call. */
  open: () => Promise<H>;
  /**
   * Everything the engine stores for the products, brands and what they imply (its tables, its
   * search answers), in a form two stores that committed the same catalogue give equal: write
   * timestamps by rank, internal ids by value.
   */
  storedState: (handle: H) => Promise<unknown>;
  /** The schema's indexes and triggers, which a bulk path may drop and rebuild inside its transaction. */
  schemaObjects: (handle: H) => Promise<unknown>;
}

type Load = (store: RecordStore, batch: readonly ProductInput[]) => Promise<unknown>;
const perProduct: Load = (store, batch) => store.products.upsertMany(batch);
const bulk: Load = (store, batch) => store.products.bulkLoad(batch);
/** Every batch in one call of each path: one upsertMany of them all, one bulkLoadAll of the batches. */
type LoadAll = (store: RecordStore, batches: ProductInput[][]) => Promise<unknown>;
const perProductAtOnce: LoadAll = (store, batches) => store.products.upsertMany(batches.flat());
const bulkAll: LoadAll = (store, batches) => store.products.bulkLoadAll(batches);

const OPERATOR: AuditContext = {
  actor: { kind: 'operator', name: 'operator-cli' },
  sourceIp: null,
  requestId: null,
};

/**
 * Generated batches, then a second round that updates, re-brands, archives, changes channel values
 * and re-relates (to a product that arrives later, named with another letter case), and adds, with
 * an id given twice in one batch.
 */
function rounds(): ProductInput[][] {
  const generated = [...generateProductBatches({ products: 1200, seed: 'bulk-equal' }, 400)];
  const first = generated[0] as ProductInput[];
  const renamed: ProductInput[] = first.slice(0, 50).map((product, i) => ({
    ...product,
    name: `Renamed ${product.name}`,
    archived: i % 7 === 0,
    ...(i % 5 === 0 ? { brandName: 'Brand new in round two' } : {}),
    ...(i % 3 === 0 ? { webVisibility: { [DEMO_WEB_CHANNELS[0]?.slug as string]: i % 2 === 0 } } : {}),
    relatedProducts: [
      { productId: (first[i + 60] as ProductInput).id as string, relationType: 'optional' as const, qty: 2 },
      { productId: '00000000-0000-4000-8000-00000000abcd', relationType: 'required' as const, qty: 1 },
    ],
  }));
  const late = aProduct({
    id: '00000000-0000-4000-8000-00000000ABCD',
    name: 'Arrives late',
    brandName: 'Late',
  });
  const twice = aProduct({ name: 'Given twice, first' });
  const mixed = [
    ...renamed,
    aProduct({
      name: 'Mixed new one',
      relatedProducts: [{ productId: late.id as string, relationType: 'substitute', qty: 1 }],
    }),
    twice,
    {
      ...twice,
      name: 'Given twice, second',
      webVisibility: { [DEMO_WEB_CHANNELS[1]?.slug as string]: true },
    },
  ];
  return [...generated, mixed, [late, aProduct({ name: 'Last new one' })]];
}

async function wholeFeed(store: RecordStore): Promise<Change[]> {
  const all: Change[] = [];
  for (let page = await store.changes.read(0, 1000); page.length > 0; ) {
    all.push(...page);
    page = await store.changes.read(page.at(-1)?.sequence ?? 0, 1000);
  }
  return all;
}

/**
 * The catalogue as the ports show it: every product the change feed names, in seq order, with each
 * write timestamp replaced by its rank; the brands; which records the feed names. Feed entries are
 * per statement on some engines, so their order and number differ between the paths: what an
 * indexer tailing the feed needs is every written record named. Brand ids are random: by slug.
 */
async function catalogue(store: RecordStore) {
  const feed = await wholeFeed(store);
  const brands = await store.brands.list({ includeArchived: true });
  const slugs = new Map(brands.map((brand) => [brand.id, brand.slug]));
  const ids = [...new Set(feed.filter((change) => change.entity === 'product').map((c) => c.entityId))];
  const records = (await store.products.getMany(ids)).sort((a, b) => a.seq - b.seq);
  const stamps = [...new Set(records.map((record) => record.updatedAt))].sort();
  const rank = new Map(stamps.map((t, i) => [t, `stamp-${i}`]));
  const ranked = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, (iso) => rank.get(iso) ?? iso);
  return {
    count: await store.products.count(),
    products: JSON.parse(ranked(JSON.stringify(records))) as typeof records,
    brands: brands.map(({ name, slug, archived }) => ({ name, slug, archived })),
    fed: [
      ...new Set(feed.map((c) => `${c.entity} ${c.entity === 'brand' ? slugs.get(c.entityId) : c.entityId}`)),
    ].sort(),
  };
}

export function bulkLoadContract<H extends RecordStoreHandle>(engine: BulkLoadEngine<H>): void {
  describe('ProductStore.bulkLoad and bulkLoadAll', () => {
    const handles: H[] = [];
    afterEach(async () => {
      for (const handle of handles.splice(0)) await handle.dispose();
    });

    async function emptyStore(): Promise<H> {
      const handle = await engine.open();
      handles.push(handle);
      for (const channel of DEMO_WEB_CHANNELS) await handle.store.webChannels.create(channel);
      return handle;
    }

    async function loadedAtOnce(load: LoadAll, batches: ProductInput[][]): Promise<H> {
      const handle = await emptyStore();
      await load(handle.store, batches);
      return handle;
    }

    async function loaded(load: Load, batches: ProductInput[][]): Promise<H> {
      return loadedAtOnce(async (store, all) => {
        for (const batch of all) await load(store, batch);
      }, batches);
    }

    async function state(handle: H) {
      return { ports: await catalogue(handle.store), stored: await engine.storedState(handle) };
    }

    it('bulkLoad commits the same catalogue as upsertMany for the same batches', async () => {
      const batches = rounds();
      const [perProductStore, bulkStore] = [await loaded(perProduct, batches), await loaded(bulk, batches)];
      const expected = await state(perProductStore);
      expect(expected.ports.products).toHaveLength(expected.ports.count);
      expect(expected.ports.products.some((product) => product.relatedProducts.length > 0)).toBe(true);
      expect(expected.ports.products.some((product) => Object.keys(product.webVisibility).length > 0)).toBe(
        true,
      );
      expect(await state(bulkStore)).toEqual(expected);
    });

    // Into an empty catalogue an engine may load in one transaction and build its indexes after the
    // rows: the result must be that of one upsertMany of every product, ids given again later in the
    // load included.
    it('bulkLoadAll into an empty catalogue commits the same catalogue as one upsertMany of every product', async () => {
      const batches = rounds();
      const [perProductStore, bulkStore] = [
        await loadedAtOnce(perProductAtOnce, batches),
        await loadedAtOnce(bulkAll, batches),
      ];
      const expected = await state(perProductStore);
      expect(expected.ports.products.some((product) => product.relatedProducts.length > 0)).toBe(true);
      expect(await state(bulkStore)).toEqual(expected);
    });

    it('bulkLoadAll into a catalogue that has products commits the same catalogue as bulkLoad batch by batch', async () => {
      const [first, ...rest] = rounds() as [ProductInput[], ...ProductInput[][]];
      const [perBatchStore, bulkStore] = [
        await loaded(bulk, [first, ...rest]),
        await loadedAtOnce(async (store) => {
          await store.products.bulkLoad(first);
          await store.products.bulkLoadAll(rest);
        }, []),
      ];
      expect(await state(bulkStore)).toEqual(await state(perBatchStore));
    });

    it('bulkLoadAll reports each batch: uncommitted until the end into an empty catalogue, committed otherwise', async () => {
      const handle = await emptyStore();
      const heard: unknown[] = [];
      const onBatch = (batch: unknown) => heard.push(batch);
      const twice = aProduct();
      expect(await handle.store.products.bulkLoadAll([[aProduct(), twice], [twice]], { onBatch })).toEqual({
        created: 2,
        updated: 1,
      });
      expect(
        await handle.store.products.bulkLoadAll([[aProduct()], [twice, aProduct()]], { onBatch }),
      ).toEqual({ created: 2, updated: 1 });
      expect(heard).toEqual([
        { created: 2, updated: 0, committed: false },
        { created: 0, updated: 1, committed: false },
        { created: 1, updated: 0, committed: true },
        { created: 1, updated: 1, committed: true },
      ]);
    });

    it('bulkLoadAll into an empty catalogue is all or nothing: a failing batch leaves no product, brand, feed entry or schema change, and the next load commits', async () => {
      const handle = await emptyStore();
      const before = await engine.schemaObjects(handle);
      const head = await handle.store.changes.head();
      await expect(
        handle.store.products.bulkLoadAll([
          [aProduct({ brandName: 'Only in the failed load' }), aProduct()],
          [aProduct({ webVisibility: { nowhere: true } })],
        ]),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(await handle.store.products.count()).toBe(0);
      expect(await handle.store.brands.list()).toEqual([]);
      expect(await handle.store.changes.head()).toBe(head);
      expect(await engine.schemaObjects(handle)).toEqual(before);
      const after = aProduct({ name: 'after a failed load' });
      expect(await handle.store.products.bulkLoadAll([[after]])).toEqual({ created: 1, updated: 0 });
      expect((await handle.store.products.get(after.id as string))?.name).toBe('after a failed load');
    });

    it('bulkLoadAll into a catalogue that has products stops at the first failing batch, the batches before it committed', async () => {
      const handle = await emptyStore();
      await handle.store.products.bulkLoad([aProduct()]);
      const committed = [aProduct(), aProduct()];
      const failing = [aProduct(), aProduct({ webVisibility: { nowhere: true } })];
      const never = [aProduct()];
      await expect(handle.store.products.bulkLoadAll([committed, failing, never])).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect(await handle.store.products.count()).toBe(3);
      expect(await handle.store.products.getMany(committed.map((p) => p.id as string))).toHaveLength(2);
      expect(await handle.store.products.getMany([...failing, ...never].map((p) => p.id as string))).toEqual(
        [],
      );
    });

    it('bulkLoad writes a batch all or nothing: one invalid product leaves no product, feed entry or schema change, and the next write commits', async () => {
      const handle = await emptyStore();
      const before = await engine.schemaObjects(handle);
      const head = await handle.store.changes.head();
      await expect(
        handle.store.products.bulkLoad([aProduct(), aProduct({ webVisibility: { nowhere: true } })]),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(
        handle.store.products.bulkLoad([aProduct(), { name: 'no code' } as ProductInput]),
      ).rejects.toThrow();
      const self = aProduct();
      await expect(
        handle.store.products.bulkLoad([
          { ...self, relatedProducts: [{ productId: self.id as string, relationType: 'optional', qty: 1 }] },
        ]),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(await handle.store.products.count()).toBe(0);
      expect(await handle.store.changes.head()).toBe(head);
      expect(await engine.schemaObjects(handle)).toEqual(before);
      expect(
        await handle.store.products.upsertMany([aProduct({ name: 'after a failed bulk load' })]),
      ).toEqual({
        created: 1,
        updated: 0,
      });
    });

    it('bulkLoad counts created and updated as upsertMany does, with one catalogue.import-batch audit event per call', async () => {
      const handle = await emptyStore();
      const first = [aProduct(), aProduct()];
      expect(await handle.store.products.bulkLoad(first, OPERATOR)).toEqual({ created: 2, updated: 0 });
      expect(await handle.store.products.bulkLoad([...first, aProduct()], OPERATOR)).toEqual({
        created: 1,
        updated: 2,
      });
      const events = await handle.store.audit.list({ limit: 10 });
      expect(events.events.map((event) => event.action)).toEqual([
        'catalogue.import-batch',
        'catalogue.import-batch',
      ]);
    });

    it('bulkLoadAll appends one catalogue.import-batch audit event per batch, and none for a failed load into an empty catalogue', async () => {
      const handle = await emptyStore();
      await expect(
        handle.store.products.bulkLoadAll([[aProduct()], [aProduct({ webVisibility: { nowhere: true } })]], {
          audit: OPERATOR,
        }),
      ).rejects.toBeInstanceOf(ValidationError);
      expect((await handle.store.audit.list({ limit: 10 })).events).toEqual([]);
      await handle.store.products.bulkLoadAll([[aProduct(), aProduct()], [aProduct()]], { audit: OPERATOR });
      await handle.store.products.bulkLoadAll([[aProduct()], [aProduct()], [aProduct()]], {
        audit: OPERATOR,
      });
      const events = await handle.store.audit.list({ limit: 10 });
      expect(events.events.map((event) => event.action)).toEqual(Array(5).fill('catalogue.import-batch'));
    });
  });
}

const SNAPSHOT_LOADER = fileURLToPath(new URL('../fixtures/snapshot-loader.ts', import.meta.url));

/**
 * Another API instance starting on the same store, in a process of its own: once it has opened the
 * store, `go` starts its loadIfEmpty, which resolves with whether it loaded.
 */
async function anotherProcess(location: StoreLocation): Promise<{ go: () => Promise<boolean> }> {
  const child = spawn(process.execPath, ['--conditions=source', SNAPSHOT_LOADER, JSON.stringify(location)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<string>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`snapshot-loader exited with ${code}: ${stderr}`)),
    ),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.startsWith('ready\n')) resolve();
    });
    exited.catch(reject);
  });
  return {
    go: async () => {
      child.stdin.end('go\n');
      return (await exited).includes('loaded true');
    },
  };
}

export function loadIfEmptyContract(factory: RecordStoreFactory): void {
  describe('RecordStore.loadIfEmpty', () => {
    let handle: RecordStoreHandle;
    afterEach(async () => handle.dispose());

    it('loads the snapshot once when two processes race at first start', async () => {
      handle = await factory();
      const other = await anotherProcess(handle.location);
      const snapshot = firstStartSnapshot(firstStartBatches());
      const results = await Promise.all([other.go(), handle.store.loadIfEmpty(snapshot)]);
      expect(results.sort()).toEqual([false, true]);
      expect(await handle.store.products.count()).toBe(FIRST_START.products);
      expect((await handle.store.webChannels.list()).map((channel) => channel.slug).sort()).toEqual(
        DEMO_WEB_CHANNELS.map((channel) => channel.slug).sort(),
      );
      expect(
        (await handle.store.brands.list()).filter((brand) => brand.name === FIRST_START.brand),
      ).toHaveLength(1);
    });

    it('loads nothing into a catalogue that has a product, and all of the snapshot or nothing otherwise', async () => {
      handle = await factory();
      await expect(
        handle.store.loadIfEmpty(
          firstStartSnapshot([[aProduct()], [aProduct({ webVisibility: { nowhere: true } })]]),
        ),
      ).rejects.toBeInstanceOf(ValidationError);
      expect(await handle.store.products.count()).toBe(0);
      expect(await handle.store.webChannels.list()).toEqual([]);
      expect(await handle.store.loadIfEmpty(firstStartSnapshot([[aProduct()]]))).toBe(true);
      expect(await handle.store.loadIfEmpty(firstStartSnapshot([[aProduct()]]))).toBe(false);
      expect(await handle.store.products.count()).toBe(1);
    });
  });
}
