import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openPostgresRecordStore,
  type ProductInput,
  type RecordStore,
  ValidationError,
} from '../../src/index.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../../src/seed/generate-catalogue.ts';
import { postgresStore } from '../support/postgres-factory.ts';
import { aProduct } from '../support/products.ts';
import type { RecordStoreHandle } from '../support/store-factory.ts';

// ProductStore.bulkLoad must commit exactly what upsertMany commits for the same batches: the same
// rows, relations, channel values, derived "used by" entries, updatedAt order, brands and change
// feed. Two stores take the same batches, one through each path.

type Load = (store: RecordStore, batch: readonly ProductInput[]) => Promise<unknown>;
const perProduct: Load = (store, batch) => store.products.upsertMany(batch);
const bulk: Load = (store, batch) => store.products.bulkLoad(batch);
/** Every batch in one call of each path: one upsertMany of them all, one bulkLoadAll of the batches. */
type LoadAll = (store: RecordStore, batches: ProductInput[][]) => Promise<unknown>;
const perProductAtOnce: LoadAll = (store, batches) => store.products.upsertMany(batches.flat());
const bulkAll: LoadAll = (store, batches) => store.products.bulkLoadAll(batches);

const handles: RecordStoreHandle[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const handle of handles.splice(0)) await handle.dispose();
});

/** Generated batches, then a second round that updates, re-relates and adds, with ids given twice. */
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

async function emptyStore(): Promise<RecordStoreHandle> {
  const handle = await postgresStore();
  handles.push(handle);
  for (const channel of DEMO_WEB_CHANNELS) await handle.store.webChannels.create(channel);
  return handle;
}

async function loaded(load: Load, batches: ProductInput[][]): Promise<RecordStoreHandle> {
  return loadedAtOnce(async (store, all) => {
    for (const batch of all) await load(store, batch);
  }, batches);
}

async function loadedAtOnce(load: LoadAll, batches: ProductInput[][]): Promise<RecordStoreHandle> {
  const handle = await emptyStore();
  await load(handle.store, batches);
  return handle;
}

function postgresLocation(handle: RecordStoreHandle): { url: string; schema: string } {
  if (handle.location.engine !== 'postgres') throw new Error('a PostgreSQL store was expected');
  return handle.location;
}

async function inSchema<T>(handle: RecordStoreHandle, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const { url, schema } = postgresLocation(handle);
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Everything a product's state is made of, with each updatedAt replaced by its rank in the store. */
async function snapshot(handle: RecordStoreHandle) {
  const state = await inSchema(handle, async (client) => {
    const all = async (sql: string) => (await client.query(sql)).rows;
    return {
      products: await all('SELECT * FROM products ORDER BY seq'),
      relations: await all('SELECT * FROM product_relations ORDER BY product_seq, position'),
      visibility: await all('SELECT * FROM product_channel_visibility ORDER BY channel_id, product_seq'),
      brands: await all('SELECT seq, name, slug, archived FROM brands ORDER BY seq'),
      // Entries are per statement, so their order and number differ between the paths; what an
      // indexer tailing the feed needs is every written record named. Brand ids are random: by slug.
      fed: await all(
        `SELECT DISTINCT f.entity, CASE f.entity WHEN 'brand' THEN b.slug ELSE f.entity_id END AS record
         FROM change_feed f LEFT JOIN brands b ON f.entity = 'brand' AND b.id = f.entity_id ORDER BY 1, 2`,
      ),
    };
  });
  const stamps = [...new Set(state.products.map((row) => Number(row.updated_at)))].sort((a, b) => a - b);
  const rank = new Map(stamps.map((t, i) => [new Date(t).toISOString(), `stamp-${i}`]));
  const ranked = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, (iso) => rank.get(iso) ?? iso);
  const stamp = (t: unknown) => rank.get(new Date(Number(t)).toISOString()) ?? t;
  const ids = state.products.map((row) => row.id as string);
  return {
    ...state,
    products: state.products.map((row) => ({
      ...row,
      created_at: stamp(row.created_at),
      updated_at: stamp(row.updated_at),
    })),
    records: ranked(JSON.stringify(await handle.store.products.getMany(ids))),
  };
}

async function schemaObjects(handle: RecordStoreHandle) {
  return inSchema(handle, async (client) => ({
    indexes: (
      await client.query(
        'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname',
      )
    ).rows,
    triggers: (
      await client.query(
        `SELECT tgname, tgenabled FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         WHERE c.relnamespace = current_schema()::regnamespace ORDER BY tgname`,
      )
    ).rows,
  }));
}

describe('ProductStore.bulkLoad (PostgreSQL)', () => {
  it('commits the same catalogue as upsertMany for the same batches', async () => {
    const batches = rounds();
    const [perProductStore, bulkStore] = [await loaded(perProduct, batches), await loaded(bulk, batches)];
    const expected = await snapshot(perProductStore);
    expect(expected.relations.length).toBeGreaterThan(0);
    expect(expected.visibility.length).toBeGreaterThan(0);
    expect(await snapshot(bulkStore)).toEqual(expected);
  });

  it('bulkLoadAll into an empty catalogue commits the same catalogue as one upsertMany of every product', async () => {
    const batches = rounds();
    const [perProductStore, bulkStore] = [
      await loadedAtOnce(perProductAtOnce, batches),
      await loadedAtOnce(bulkAll, batches),
    ];
    const expected = await snapshot(perProductStore);
    expect(expected.relations.length).toBeGreaterThan(0);
    expect(await snapshot(bulkStore)).toEqual(expected);
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
    expect(await snapshot(bulkStore)).toEqual(await snapshot(perBatchStore));
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
    expect(await handle.store.products.bulkLoadAll([[aProduct()], [twice, aProduct()]], { onBatch })).toEqual(
      { created: 2, updated: 1 },
    );
    expect(heard).toEqual([
      { created: 2, updated: 0, committed: false },
      { created: 0, updated: 1, committed: false },
      { created: 1, updated: 0, committed: true },
      { created: 1, updated: 1, committed: true },
    ]);
  });

  it('bulkLoadAll into an empty catalogue writes nothing when a batch fails, and leaves every index and trigger', async () => {
    const handle = await emptyStore();
    const before = await schemaObjects(handle);
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
    expect(await schemaObjects(handle)).toEqual(before);
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

  it('writes nothing of a batch with one invalid product, and leaves every index and trigger', async () => {
    const handle = await emptyStore();
    const before = await schemaObjects(handle);
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
    expect(await schemaObjects(handle)).toEqual(before);
  });

  it('reports created and updated as upsertMany does, with one audit event per call', async () => {
    const handle = await emptyStore();
    const first = [aProduct(), aProduct()];
    const audit = {
      actor: { kind: 'operator' as const, name: 'operator-cli' as const },
      sourceIp: null,
      requestId: null,
    };
    expect(await handle.store.products.bulkLoad(first, audit)).toEqual({ created: 2, updated: 0 });
    expect(await handle.store.products.bulkLoad([...first, aProduct()], audit)).toEqual({
      created: 1,
      updated: 2,
    });
    const events = await handle.store.audit.list({ limit: 10 });
    expect(events.events.map((event) => event.action)).toEqual([
      'catalogue.import-batch',
      'catalogue.import-batch',
    ]);
  });
});

describe('loadIfEmpty (PostgreSQL)', () => {
  const snapshotOf = (products: ProductInput[][]) => ({
    webChannels: [...DEMO_WEB_CHANNELS],
    brands: [{ name: 'Snapshot brand' }],
    products,
  });

  /** A second process on the same schema: its own pool, as another API instance would open. */
  async function secondProcess(handle: RecordStoreHandle): Promise<RecordStore> {
    const store = await openPostgresRecordStore({ ...postgresLocation(handle), maxConnections: 2 });
    closers.push(() => store.close());
    return store;
  }

  it('loads the snapshot once when two processes race at first start', async () => {
    const handle = await postgresStore();
    handles.push(handle);
    const other = await secondProcess(handle);
    const batches = [...generateProductBatches({ products: 600, seed: 'race' }, 200)];
    const results = await Promise.all([
      handle.store.loadIfEmpty(snapshotOf(batches)),
      other.loadIfEmpty(snapshotOf(batches)),
    ]);
    expect(results.sort()).toEqual([false, true]);
    expect(await handle.store.products.count()).toBe(600);
    expect((await handle.store.webChannels.list()).map((channel) => channel.slug).sort()).toEqual(
      DEMO_WEB_CHANNELS.map((channel) => channel.slug).sort(),
    );
    expect(
      (await handle.store.brands.list()).filter((brand) => brand.name === 'Snapshot brand'),
    ).toHaveLength(1);
  });

  it('loads nothing into a catalogue that has a product, and all of the snapshot or nothing otherwise', async () => {
    const handle = await postgresStore();
    handles.push(handle);
    await expect(
      handle.store.loadIfEmpty(snapshotOf([[aProduct()], [aProduct({ webVisibility: { nowhere: true } })]])),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await handle.store.products.count()).toBe(0);
    expect(await handle.store.webChannels.list()).toEqual([]);
    expect(await handle.store.loadIfEmpty(snapshotOf([[aProduct()]]))).toBe(true);
    expect(await handle.store.loadIfEmpty(snapshotOf([[aProduct()]]))).toBe(false);
    expect(await handle.store.products.count()).toBe(1);
  });
});
