import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/adapters/sqlite/index.ts';
import { migrate } from '../../src/adapters/sqlite/migrate.ts';
import { changeFeed } from '../../src/adapters/sqlite/migrations/0009-change-feed.ts';
import { recordVersions } from '../../src/adapters/sqlite/migrations/0010-record-versions.ts';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../../src/adapters/sqlite/open-database.ts';
import {
  runInWriteTransaction,
  runOn,
  sqliteRecordEngine,
} from '../../src/adapters/sqlite/records/sqlite-record-engine.ts';
import { writeProduct } from '../../src/adapters/sqlite/records/write-product.ts';
import { inWriteTransaction } from '../../src/adapters/sqlite/transaction.ts';
import { refreshStaleSearchDocuments } from '../../src/adapters/sqlite/write-search-documents.ts';
import {
  type CatalogStore,
  type Change,
  catalogDatabasePath,
  type NewClient,
  type ProductInput,
  ValidationError,
} from '../../src/index.ts';
import { insertBrand } from '../../src/records/brand-records.ts';
import { RecordClientStore } from '../../src/records/record-client-store.ts';
import { insertWebChannel } from '../../src/records/web-channel-records.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../../src/seed/generate-catalogue.ts';
import { aProduct } from '../../src/testing/index.ts';
import {
  openSqliteCatalogStore,
  type SqliteStoreHandle,
  sqliteStore,
  tempDataDir,
} from '../support/sqlite-factory.ts';

// What the change feed's rules mean for the embedded engine in particular: a migration that gives
// an existing database its starting point, bulk loads that drop the per-row triggers, and the rows
// of products and clients that change for reasons other than a write.

const A_CLIENT: NewClient = {
  clientId: 'feed0000000000000000000002',
  clientName: 'Feed client',
  scopes: ['products.read'],
  createdBy: { userId: 'u1', userName: 'Ada Admin' },
  expiresAt: null,
  secretHash: 'hash',
  tokenLifetimeSeconds: 3600,
};

async function wholeFeed(store: CatalogStore): Promise<Change[]> {
  return store.changes.read(0, 1_000_000);
}

function described(changes: readonly Change[]): string[] {
  return changes.map((change) => `${change.entity} ${change.entityId}`);
}

function sequential(changes: readonly Change[]): boolean {
  return changes.every((change, index) => change.sequence === index + 1);
}

/** Rows of the database at `path`, read on a connection of its own. */
function rows<T>(path: string, sql: string): T[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

const handles: SqliteStoreHandle[] = [];
async function emptyStore(): Promise<SqliteStoreHandle> {
  const handle = await sqliteStore({ searchWorkers: 1 });
  handles.push(handle);
  return handle;
}
let dir: string | undefined;
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.dispose();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('change feed (SQLite)', () => {
  it('migrating an existing database appends one entry per record: channels, brands, products by seq with their updatedAt, then clients', async () => {
    dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const db = openDatabase(path);
    migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < changeFeed.version),
    );
    // Today's write code stamps versions (migration 10): the columns are there while it writes the
    // records of a version-8 database, and gone again before that database is migrated.
    db.exec(recordVersions.sql);
    const first = aProduct({ brandName: 'Acme' });
    const second = aProduct();
    inWriteTransaction(db, () => {
      runInWriteTransaction(db, insertWebChannel({ slug: 'main-site', name: 'Main site' }, 1_000));
      runOn(db, insertBrand({ name: 'Acme' }, 2_000));
      writeProduct(db, first, 3_000, 'upsert');
      writeProduct(db, second, 4_000, 'upsert');
      // Written again later: the backfill keeps its seq's place and takes its newest updatedAt.
      writeProduct(db, { ...first, name: 'Rewritten' }, 5_000, 'upsert');
    });
    const clients = new RecordClientStore(sqliteRecordEngine(db));
    await clients.create({ ...A_CLIENT, createdAt: '2020-01-01T00:00:00.000Z' });
    const revoked = await clients.revoke(A_CLIENT.clientId, { userId: 'u1', userName: 'Ada Admin' });
    for (const table of ['products', 'brands', 'web_channels', 'm2m_clients']) {
      db.exec(`ALTER TABLE ${table} DROP COLUMN version`);
    }
    db.close();

    // Later migrations may follow; this one is the one this test is about.
    expect(migrateDatabase(path).applied[0]).toBe('9 change feed');
    const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
    try {
      const [brand] = await store.brands.list();
      const backfilled = await wholeFeed(store);
      expect(backfilled).toEqual([
        {
          sequence: 1,
          entity: 'web-channel',
          entityId: 'main-site',
          changedAt: new Date(1_000).toISOString(),
        },
        { sequence: 2, entity: 'brand', entityId: brand?.id, changedAt: new Date(2_000).toISOString() },
        { sequence: 3, entity: 'product', entityId: first.id, changedAt: new Date(5_000).toISOString() },
        { sequence: 4, entity: 'product', entityId: second.id, changedAt: new Date(4_000).toISOString() },
        { sequence: 5, entity: 'client', entityId: A_CLIENT.clientId, changedAt: revoked.revokedAt },
      ]);
      const next = await store.products.create(aProduct());
      expect(await store.changes.read(5, 10)).toEqual([
        { sequence: 6, entity: 'product', entityId: next.id, changedAt: next.updatedAt },
      ]);
    } finally {
      await store.close();
    }
  });

  it("bulkLoadAll into an empty catalogue appends each brand, then each product in seq order, once, with the load's updatedAt; an id given again is a second write", async () => {
    const { store, databasePath } = await emptyStore();
    for (const channel of DEMO_WEB_CHANNELS) await store.webChannels.create(channel);
    const channels = await store.changes.head();
    const batches = [...generateProductBatches({ products: 900, seed: 'feed-bulk' }, 300)];
    const firstProduct = batches[0]?.[0] as ProductInput;
    await store.products.bulkLoadAll([...batches, [{ ...firstProduct, name: 'Given again' }]]);

    const products = rows<{ id: string }>(databasePath, 'SELECT id FROM products ORDER BY seq');
    const brands = rows<{ id: string }>(databasePath, 'SELECT id FROM brands ORDER BY seq');
    expect(products).toHaveLength(900);
    const feed = await wholeFeed(store);
    expect(sequential(feed)).toBe(true);
    expect(described(feed.slice(channels))).toEqual([
      ...brands.map((brand) => `brand ${brand.id}`),
      ...products.map((product) => `product ${product.id}`),
      `product ${firstProduct.id}`,
    ]);
    const [record] = await store.products.getMany([firstProduct.id as string]);
    expect(new Set(feed.slice(channels).map((change) => change.changedAt))).toEqual(
      new Set([record?.updatedAt]),
    );
  });

  it("loadIfEmpty appends the snapshot's channels, brands and products once each", async () => {
    const { store, databasePath } = await emptyStore();
    const products = [aProduct({ brandName: 'Acme' }), aProduct({ brandName: 'Bolt' }), aProduct()];
    expect(
      await store.loadIfEmpty({
        webChannels: [{ slug: 'main-site', name: 'Main site' }],
        brands: [{ name: 'Acme' }],
        products: [products],
      }),
    ).toBe(true);
    const brands = rows<{ id: string }>(databasePath, 'SELECT id FROM brands ORDER BY seq');
    expect(brands).toHaveLength(2);
    expect(described(await wholeFeed(store))).toEqual([
      'web-channel main-site',
      ...brands.map((brand) => `brand ${brand.id}`),
      ...products.map((product) => `product ${product.id}`),
    ]);
  });

  it('bulkLoad appends one entry per new product in seq order, then one per product whose "used by" entries it changed, then one per existing product it rewrites', async () => {
    const { store } = await emptyStore();
    const target = await store.products.create(aProduct());
    const existing = aProduct();
    await store.products.create(existing);
    const head = await store.changes.head();
    const kit = aProduct({ relatedProducts: [{ productId: target.id, relationType: 'required', qty: 1 }] });
    const plain = aProduct();
    await store.products.bulkLoad([kit, { ...existing, name: 'Rewritten' }, plain]);
    const appended = await store.changes.read(head, 10);
    expect(described(appended)).toEqual([
      `product ${kit.id}`,
      `product ${plain.id}`,
      `product ${target.id}`,
      `product ${existing.id}`,
    ]);
    expect(appended.map((change) => change.sequence)).toEqual([1, 2, 3, 4].map((n) => head + n));
  });

  it("a failed bulk load appends nothing and leaves the feed's insert trigger in place", async () => {
    const { store, databasePath } = await emptyStore();
    const invalid = aProduct({ webVisibility: { nowhere: true } });
    await expect(store.products.bulkLoadAll([[aProduct()], [invalid]])).rejects.toBeInstanceOf(
      ValidationError,
    );
    await store.products.create(aProduct());
    await expect(store.products.bulkLoad([aProduct(), invalid])).rejects.toBeInstanceOf(ValidationError);
    expect(await store.changes.head()).toBe(1);
    expect(
      rows(databasePath, "SELECT name FROM sqlite_schema WHERE name = 'products_feed_insert'"),
    ).toHaveLength(1);
    const after = await store.products.upsertMany([aProduct()]);
    expect(after.created).toBe(1);
    expect(await store.changes.head()).toBe(2);
  });

  it('only the client columns an administrator writes append an entry: token exchanges and usage counts do not', async () => {
    const { store } = await emptyStore();
    const before = Date.now();
    await store.clients.create(A_CLIENT);
    await store.clients.recordTokenExchange(A_CLIENT.clientId, new Date());
    await store.clients.recordUsage(A_CLIENT.clientId, 5);
    await store.clients.update(A_CLIENT.clientId, { scopes: ['products.read', 'brands.read'] });
    await store.clients.recordUsage(A_CLIENT.clientId, 2);
    await store.clients.revoke(A_CLIENT.clientId, { userId: 'u1', userName: 'Ada Admin' });
    const feed = await wholeFeed(store);
    expect(described(feed)).toEqual(Array(3).fill(`client ${A_CLIENT.clientId}`));
    // A client's row records no time for every write: its entries take the time of the statement.
    for (const change of feed) {
      expect(Date.parse(change.changedAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(change.changedAt)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('rebuilding search documents, backfilling them, compacting the index or updating a product row without stamping updatedAt append nothing', async () => {
    const { store, databasePath } = await emptyStore();
    const products = [aProduct(), aProduct(), aProduct()];
    await store.products.upsertMany(products);
    const head = await store.changes.head();

    const db = openDatabase(databasePath);
    inWriteTransaction(db, () => {
      db.exec('INSERT INTO product_documents_stale (seq) SELECT seq FROM products');
      refreshStaleSearchDocuments(db);
    });
    db.exec("DELETE FROM product_documents; DELETE FROM meta WHERE key = 'search_documents_backfilled'");
    db.exec("UPDATE products SET colour = 'Teal'");
    db.close();
    // Opening the store backfills the documents the previous step removed.
    const reopened = openSqliteCatalogStore({ databasePath, searchWorkers: 1 });
    try {
      await reopened.compactSearchIndex();
      expect(rows(databasePath, 'SELECT seq FROM product_documents')).toHaveLength(products.length);
      expect(await reopened.changes.head()).toBe(head);
      expect(await reopened.changes.read(head, 10)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('readRecords returns the records the entries name, read with the head, and the owners of relations that name a new product', async () => {
    const { store } = await emptyStore();
    await store.webChannels.create({ slug: 'main-site', name: 'Main site' });
    const brand = await store.brands.create({ name: 'Acme' });
    const partId = aProduct().id as string;
    const kit = await store.products.create(
      aProduct({ relatedProducts: [{ productId: partId, relationType: 'required', qty: 2 }] }),
    );
    expect(kit.relatedProducts).toEqual([]);
    const head = await store.changes.head();
    const part = await store.products.create(aProduct({ id: partId }));

    const all = await store.changes.readRecords(0, 2);
    expect(all).toMatchObject({ through: 2, head: head + 1, products: [] });
    expect(all.webChannels.map((channel) => channel.slug)).toEqual(['main-site']);
    expect(all.brands).toEqual([brand]);

    const latest = await store.changes.readRecords(head, 10);
    expect(latest).toMatchObject({ through: head + 1, head: head + 1, webChannels: [], brands: [] });
    expect(latest.products.map((product) => product.id)).toEqual([kit.id, part.id]);
    expect(latest.products[0]?.relatedProducts.map((entry) => entry.productId)).toEqual([part.id]);
    expect(await store.changes.readRecords(head + 1, 10)).toEqual({
      through: head + 1,
      head: head + 1,
      webChannels: [],
      brands: [],
      products: [],
    });
  });
});
