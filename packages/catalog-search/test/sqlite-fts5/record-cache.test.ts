import { DatabaseSync } from 'node:sqlite';
import { projectProduct } from '@catalog/store';
import { aProduct } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// Search workers keep loaded records until another connection commits (PRAGMA data_version).
// One worker, so every search below goes through the same cache.
describe('records cached by a search worker', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  const view = { channel: null, withRelationCodes: false } as const;

  it('are dropped by any commit, including ones that leave the product itself untouched', async () => {
    handle = await sqliteStore({ searchWorkers: 1 });
    const { store } = handle;
    const target = await store.products.create(aProduct({ name: 'Sprocket' }));
    const user = await store.products.create(aProduct({ name: 'Chain' }));
    const first = await store.productSearch.searchDocuments({ q: 'sprocket' }, view);
    expect(JSON.parse(first.documents[0] as string).relatedProducts).toEqual([]);

    // Another product now points at the target: its reverse relations change, its updatedAt does not.
    await store.products.replace(user.id, {
      ...aProduct({ id: user.id, productCode: user.productCode, name: 'Chain' }),
      relatedProducts: [{ productId: target.id, relationType: 'optional', qty: 2 }],
    });
    const second = await store.productSearch.searchDocuments({ q: 'sprocket' }, view);
    expect(JSON.parse(second.documents[0] as string).relatedProducts).toEqual([
      { productId: user.id, relationType: 'optional', qty: 2, source: 'reverse' },
    ]);

    // A commit from a connection outside the store (as another process would make).
    const other = new DatabaseSync(handle.databasePath);
    other.prepare("UPDATE products SET colour = 'Teal' WHERE id = ?").run(target.id);
    other.close();
    const third = await store.productSearch.search({ q: 'sprocket' });
    expect(third.products[0]?.colour).toBe('Teal');
  });

  it('render the same JSON as the allowlist projection, for each view', async () => {
    handle = await sqliteStore({ searchWorkers: 1 });
    const { store } = handle;
    for (let i = 0; i < 3; i += 1)
      await store.products.create(aProduct({ name: `Bracket ${i}`, displayOnWeb: i === 0 }));
    const records = (await store.productSearch.search({ q: 'bracket' })).products;
    for (const v of [view, { ...view, channel: 'unknown' }, { ...view, fields: new Set(['id', 'name']) }]) {
      // Twice: the second answer comes from the rendered-JSON memo of the cached records.
      for (let round = 0; round < 2; round += 1) {
        const page = await store.productSearch.searchDocuments({ q: 'bracket' }, v);
        expect(page.documents).toEqual(records.map((record) => JSON.stringify(projectProduct(record, v))));
      }
    }
  });
});
