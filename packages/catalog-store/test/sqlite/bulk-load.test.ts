import { afterEach, describe, expect, it } from 'vitest';
import { type ProductInput, ValidationError } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// The embedded engine's bulk paths suspend the insert triggers (and, into an empty catalogue, drop
// the secondary indexes) inside their transaction, and derive the full-text rows, facets and
// documents once per batch. What every engine must commit is the contract's
// (contract/bulk-load.contract.ts, which also compares the schema before and after a failed load);
// here: a failed load leaves triggers that work, so what is written next is searchable.

let handle: SqliteStoreHandle | undefined;
afterEach(async () => handle?.dispose());

async function emptyStore(): Promise<SqliteStoreHandle> {
  handle = await sqliteStore();
  await handle.store.webChannels.create({ slug: 'main-site', name: 'Main site' });
  return handle;
}

describe('bulk load (SQLite): suspended insert triggers', () => {
  it('a failed bulkLoadAll into an empty catalogue leaves the triggers and indexes working: the next load is found by search', async () => {
    const { store } = await emptyStore();
    await expect(
      store.products.bulkLoadAll([
        [aProduct(), aProduct()],
        [aProduct({ webVisibility: { nowhere: true } })],
      ]),
    ).rejects.toBeInstanceOf(ValidationError);
    await store.products.bulkLoadAll([[aProduct({ name: 'after a failed load' })]]);
    const page = await store.productSearch.search({ q: 'failed', size: 5 });
    expect(page.products).toHaveLength(1);
  });

  it('a failed bulkLoad leaves the triggers working: the per-product path still derives everything, so a later upsertMany is found by search', async () => {
    const { store } = await emptyStore();
    await expect(
      store.products.bulkLoad([aProduct(), aProduct({ webVisibility: { nowhere: true } })]),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(
      store.products.bulkLoad([aProduct(), { name: 'no code' } as ProductInput]),
    ).rejects.toThrow();
    await store.products.upsertMany([aProduct({ name: 'after a failed bulk load' })]);
    const page = await store.productSearch.search({ q: 'failed', size: 5 });
    expect(page.products).toHaveLength(1);
  });
});
