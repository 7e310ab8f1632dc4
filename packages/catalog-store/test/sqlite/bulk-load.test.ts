import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type CatalogStore, type ProductInput, ValidationError } from '../../src/index.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../../src/seed/generate-catalogue.ts';
import { aProduct } from '../support/products.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// ProductStore.bulkLoad must commit exactly what upsertMany commits for the same batches: the same
// rows, relations, derived "used by" entries, updatedAt order, facet tables, full-text index and
// stored search documents. Two stores take the same batches, one through each path.

type Load = (store: CatalogStore, batch: readonly ProductInput[]) => Promise<unknown>;
const perProduct: Load = (store, batch) => store.products.upsertMany(batch);
const bulk: Load = (store, batch) => store.products.bulkLoad(batch);
/** Every batch in one call of each path: one upsertMany of them all, one bulkLoadAll of the batches. */
type LoadAll = (store: CatalogStore, batches: ProductInput[][]) => Promise<unknown>;
const perProductAtOnce: LoadAll = (store, batches) => store.products.upsertMany(batches.flat());
const bulkAll: LoadAll = (store, batches) => store.products.bulkLoadAll(batches);

const handles: SqliteStoreHandle[] = [];
afterEach(async () => {
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
    relatedProducts: [
      { productId: (first[i + 60] as ProductInput).id as string, relationType: 'optional' as const, qty: 2 },
      { productId: '00000000-0000-4000-8000-00000000abcd', relationType: 'required' as const, qty: 1 },
    ],
  }));
  const late = aProduct({
    id: '00000000-0000-4000-8000-00000000abcd',
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
    { ...twice, name: 'Given twice, second' },
  ];
  return [...generated, mixed, [late, aProduct({ name: 'Last new one' })]];
}

async function loaded(load: Load, batches: ProductInput[][]): Promise<SqliteStoreHandle> {
  return loadedAtOnce(async (store, all) => {
    for (const batch of all) await load(store, batch);
  }, batches);
}

async function loadedAtOnce(load: LoadAll, batches: ProductInput[][]): Promise<SqliteStoreHandle> {
  const handle = await sqliteStore();
  handles.push(handle);
  for (const channel of DEMO_WEB_CHANNELS) await handle.store.webChannels.create(channel);
  await load(handle.store, batches);
  return handle;
}

/** Everything a product's state is made of, with each updatedAt replaced by its rank in the file. */
function snapshot(databasePath: string) {
  const db = new DatabaseSync(databasePath);
  const all = (sql: string) => db.prepare(sql).all();
  const stamps = (
    all('SELECT DISTINCT updated_at AS t FROM products ORDER BY t') as Array<{ t: number }>
  ).map((row) => row.t);
  const rank = new Map(stamps.map((t, i) => [new Date(t).toISOString(), `stamp-${i}`]));
  const stamp = (t: unknown) => rank.get(new Date(t as number).toISOString()) ?? t;
  const ranked = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, (iso) => rank.get(iso) ?? iso);
  const result = {
    products: ranked(
      JSON.stringify(
        all(`SELECT * FROM products ORDER BY seq`).map((row) => ({
          ...row,
          created_at: stamp(row.created_at),
          updated_at: stamp(row.updated_at),
        })),
      ),
    ),
    relations: all('SELECT * FROM product_relations ORDER BY product_seq, position'),
    visibility: all('SELECT * FROM product_channel_visibility ORDER BY channel_id, product_seq'),
    brands: all('SELECT seq, name, slug, archived FROM brands ORDER BY seq'),
    facetCounts: all('SELECT * FROM facet_counts WHERE n > 0 ORDER BY facet, value, archived'),
    // Combination ids and clock values are internal numbers handed out in write order, which differs
    // when a batch mixes new and existing products (bulk writes the new ones first): compared by value.
    combinations: all(
      'SELECT brand_name, category, department, stock_type FROM facet_combinations ORDER BY brand_name, category, department, stock_type',
    ),
    productFacets: all(
      `SELECT f.seq, c.brand_name, c.category, c.department, c.stock_type, f.changed <= (SELECT n FROM product_facets_clock) AS ticked
       FROM product_facets f JOIN facet_combinations c ON c.id = f.combination ORDER BY f.seq`,
    ),
    documents: ranked(JSON.stringify(all('SELECT * FROM product_documents ORDER BY seq'))),
    stale: all('SELECT * FROM product_documents_stale'),
    fts: ['drill', 'renamed', 'arrives', 'brass', 'ERP'].map((term) =>
      all(`SELECT rowid FROM product_fts WHERE product_fts MATCH '"${term}"*' ORDER BY rowid`),
    ),
    ftsTerms: all('SELECT term, doc, cnt FROM product_fts_terms ORDER BY term'),
    schema: all("SELECT type, name, sql FROM sqlite_schema WHERE type IN ('trigger', 'index') ORDER BY name"),
  };
  db.exec("INSERT INTO product_fts (product_fts) VALUES ('integrity-check')");
  db.close();
  return result;
}

async function searchPages(store: CatalogStore) {
  const queries = [{ q: 'drill' }, { q: 'renamed', sort: 'name' as const }, { brandName: 'Late' }, {}];
  const pages = [];
  for (const query of queries) {
    const page = await store.productSearch.search({ ...query, size: 50, includeAggregations: true });
    pages.push({
      ids: page.products.map((product) => product.id),
      total: page.total,
      aggregations: page.aggregations,
      reverse: page.products.map((product) =>
        product.relatedProducts.filter((entry) => entry.source === 'reverse').map((entry) => entry.productId),
      ),
    });
  }
  return pages;
}

describe('ProductStore.bulkLoad (SQLite)', () => {
  it('commits the same catalogue as upsertMany for the same batches', async () => {
    const batches = rounds();
    const [perProductStore, bulkStore] = [await loaded(perProduct, batches), await loaded(bulk, batches)];
    const expected = snapshot(perProductStore.databasePath);
    expect(expected.relations.length).toBeGreaterThan(0);
    expect(snapshot(bulkStore.databasePath)).toEqual(expected);
    expect(await searchPages(bulkStore.store)).toEqual(await searchPages(perProductStore.store));
  });

  // An empty catalogue is loaded in one transaction, its indexes built after the rows: the result must
  // be that of one upsertMany of every product, ids given again later in the load included.
  it('bulkLoadAll into an empty catalogue commits the same catalogue as one upsertMany of every product', async () => {
    const batches = rounds();
    const [perProductStore, bulkStore] = [
      await loadedAtOnce(perProductAtOnce, batches),
      await loadedAtOnce(bulkAll, batches),
    ];
    const expected = snapshot(perProductStore.databasePath);
    expect(expected.relations.length).toBeGreaterThan(0);
    expect(snapshot(bulkStore.databasePath)).toEqual(expected);
    expect(await searchPages(bulkStore.store)).toEqual(await searchPages(perProductStore.store));
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
    expect(snapshot(bulkStore.databasePath)).toEqual(snapshot(perBatchStore.databasePath));
  });

  it('bulkLoadAll reports each batch: uncommitted until the end into an empty catalogue, committed otherwise', async () => {
    const handle = await loaded(bulk, []);
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
    const handle = await loaded(bulk, []);
    const before = snapshot(handle.databasePath).schema;
    await expect(
      handle.store.products.bulkLoadAll([
        [aProduct(), aProduct()],
        [aProduct({ webVisibility: { nowhere: true } })],
      ]),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await handle.store.products.count()).toBe(0);
    expect(snapshot(handle.databasePath).schema).toEqual(before);
    await handle.store.products.bulkLoadAll([[aProduct({ name: 'after a failed load' })]]);
    const page = await handle.store.productSearch.search({ q: 'failed', size: 5 });
    expect(page.products).toHaveLength(1);
  });

  it('reports created and updated as upsertMany does, with one audit event per call', async () => {
    const handle = await loaded(bulk, []);
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

  it('writes nothing of a batch with one invalid product, and leaves every trigger in place', async () => {
    const handle = await loaded(bulk, []);
    const before = snapshot(handle.databasePath).schema;
    await expect(
      handle.store.products.bulkLoad([aProduct(), aProduct({ webVisibility: { nowhere: true } })]),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      handle.store.products.bulkLoad([aProduct(), { name: 'no code' } as ProductInput]),
    ).rejects.toThrow();
    expect(await handle.store.products.count()).toBe(0);
    expect(snapshot(handle.databasePath).schema).toEqual(before);
    // The per-product path still derives everything: the triggers are back.
    await handle.store.products.upsertMany([aProduct({ name: 'after a failed bulk load' })]);
    const page = await handle.store.productSearch.search({ q: 'failed', size: 5 });
    expect(page.products).toHaveLength(1);
  });
});
