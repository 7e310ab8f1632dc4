import { DatabaseSync } from 'node:sqlite';
import type { ProductView } from '@catalog/store';
import { aProduct, TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// The page cache of GET /products/search (search/page-cache.ts) may only ever answer with the page
// a search of the current catalogue would give.

const view: ProductView = { channel: null, withRelationCodes: false };

describe('search page cache', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('a repeated first page is the same page, with a cursor signed again for the same position', async () => {
    handle = await sqliteStore({ searchPageCacheBytes: 2 ** 20 });
    const { store } = handle;
    await store.products.upsertMany(Array.from({ length: 5 }, () => aProduct({ name: 'Cached valve' })));
    const query = { q: 'valve', size: 2, includeAggregations: true };
    const first = await store.productSearch.searchDocuments(query, view);
    const again = await store.productSearch.searchDocuments(query, view);
    expect({ ...again, queryTimeMs: 0, syncToken: null }).toEqual({
      ...first,
      queryTimeMs: 0,
      syncToken: null,
    });
    // Both cursors continue with the same page.
    const next = await store.productSearch.searchDocuments(
      { ...query, syncToken: first.syncToken as string },
      view,
    );
    const nextAgain = await store.productSearch.searchDocuments(
      { ...query, syncToken: again.syncToken as string },
      view,
    );
    expect(nextAgain.documents).toEqual(next.documents);
    expect(next.documents).toHaveLength(2);
  });

  it('a commit by another connection (another process) shows from the next search', async () => {
    handle = await sqliteStore({ searchPageCacheBytes: 2 ** 20 });
    const { store } = handle;
    await store.products.create(aProduct({ name: 'Brass tap' }));
    expect((await store.productSearch.searchDocuments({ q: 'tap' }, view)).total).toBe(1);
    const other = await sqliteStoreOn(handle.databasePath);
    try {
      await other.products.create(aProduct({ name: 'Steel tap' }));
    } finally {
      await other.close();
    }
    const after = await store.productSearch.searchDocuments({ q: 'tap' }, view);
    expect(after.total).toBe(2);
    expect(after.documents.map((json) => JSON.parse(json).name).sort()).toEqual(['Brass tap', 'Steel tap']);
  });

  it('a commit by the same store, and a change made by hand on another connection, show from the next search', async () => {
    handle = await sqliteStore({ searchPageCacheBytes: 2 ** 20 });
    const { store } = handle;
    const product = await store.products.create(aProduct({ name: 'Copper elbow' }));
    expect((await store.productSearch.searchDocuments({ q: 'elbow' }, view)).total).toBe(1);
    await store.products.replace(product.id, {
      id: product.id,
      productCode: product.productCode,
      name: 'Copper bend',
    });
    expect((await store.productSearch.searchDocuments({ q: 'elbow' }, view)).total).toBe(0);
    expect((await store.productSearch.searchDocuments({ q: 'bend' }, view)).total).toBe(1);
    const side = new DatabaseSync(handle.databasePath);
    side.prepare('DELETE FROM products WHERE id = ?').run(product.id);
    side.close();
    expect((await store.productSearch.searchDocuments({ q: 'bend' }, view)).total).toBe(0);
  });

  it('writes outside the catalogue (usage counts) keep cached pages; a catalogue write on the same connection does not', async () => {
    let searched = 0;
    handle = await sqliteStore({
      searchPageCacheBytes: 2 ** 20,
      searchObserver: { jobSettled: () => (searched += 1) },
    });
    const { store } = handle;
    await store.products.create(aProduct({ name: 'Ball valve' }));
    const { clientId } = await store.clients.create({
      clientId: 'PAGECACHE00000000000000001',
      clientName: 'page cache',
      scopes: ['products.read'],
      createdBy: { userId: 'test', userName: 'test' },
      expiresAt: null,
      secretHash: 'x',
      tokenLifetimeSeconds: 3600,
    });
    await store.productSearch.searchDocuments({ q: 'valve' }, view);
    expect(searched).toBe(1);
    await store.clients.recordUsage(clientId, 3);
    await store.productSearch.searchDocuments({ q: 'valve' }, view);
    expect(searched).toBe(1);
    await store.products.create(aProduct({ name: 'Check valve' }));
    expect((await store.productSearch.searchDocuments({ q: 'valve' }, view)).total).toBe(2);
    expect(searched).toBe(2);
  });

  it('pages of other offsets, sizes, views and field selections are never served for each other', async () => {
    handle = await sqliteStore({ searchPageCacheBytes: 2 ** 20 });
    const { store } = handle;
    await store.webChannels.create({ slug: 'outlet' });
    await store.products.upsertMany(
      Array.from({ length: 4 }, (_, i) =>
        aProduct({ name: `Gate valve ${i}`, displayOnWeb: true, webVisibility: { outlet: false } }),
      ),
    );
    const base = await store.productSearch.searchDocuments({ q: 'gate', size: 2 }, view);
    const offset = await store.productSearch.searchDocuments({ q: 'gate', size: 2, from: 2 }, view);
    expect(offset.documents).not.toEqual(base.documents);
    expect((await store.productSearch.searchDocuments({ q: 'gate', size: 3 }, view)).documents).toHaveLength(
      3,
    );
    const outletView: ProductView = { channel: 'outlet', withRelationCodes: false };
    const outlet = await store.productSearch.searchDocuments(
      { q: 'gate', size: 2, channel: 'outlet' },
      outletView,
    );
    expect(outlet.documents.map((json) => JSON.parse(json).displayOnWeb)).toEqual([false, false]);
    const named = await store.productSearch.searchDocuments(
      { q: 'gate', size: 2 },
      { ...view, fields: new Set(['name']) },
    );
    expect(named.documents.map((json) => Object.keys(JSON.parse(json)))).toEqual([['name'], ['name']]);
  });
});

async function sqliteStoreOn(databasePath: string) {
  const { openSqliteCatalogStore } = await import('../../src/engines/index.ts');
  return openSqliteCatalogStore({ databasePath, searchWorkers: 1, searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS });
}
