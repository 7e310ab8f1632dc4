import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDemoCatalogue, generateProductBatches, seedCatalogue } from '../../src/index.ts';
import { openSqliteCatalogStore, type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const ENSURE_DEMO = fileURLToPath(new URL('../fixtures/ensure-demo.ts', import.meta.url));
const run = promisify(execFile);

describe('demo catalogue', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('is deterministic: the same seed yields the same products, another seed differs', () => {
    const first = [...generateProductBatches({ products: 50, seed: 's1' }, 20)].flat();
    const again = [...generateProductBatches({ products: 50, seed: 's1' }, 7)].flat();
    const other = [...generateProductBatches({ products: 50, seed: 's2' }, 50)].flat();
    expect(again).toEqual(first);
    expect(other.map((p) => p.id)).not.toEqual(first.map((p) => p.id));
  });

  it('covers what the catalogue model has: brands, trees, files, all relation types, spares, notes, states', async () => {
    handle = await sqliteStore();
    await seedCatalogue(handle.store, { products: 1500 });
    const page = await handle.store.productSearch.search({ includeArchived: true, size: 100 });
    expect(page.total).toBe(1500);
    const products = await handle.store.products.getMany(
      [...generateProductBatches({ products: 1500 }, 1500)].flat().map((p) => p.id as string),
    );
    const some = (test: (p: (typeof products)[number]) => boolean) => products.some(test);
    expect(new Set(products.map((p) => p.brandName)).size).toBeGreaterThan(10);
    expect(some((p) => p.webHierarchy.split(';').length === 3 && p.subSubType !== '')).toBe(true);
    expect(some((p) => p.images.length > 0 && p.imageUrl === p.images[0]?.url)).toBe(true);
    expect(some((p) => p.documents.some((d) => d.url.endsWith('.pdf')))).toBe(true);
    for (const type of ['required', 'optional', 'substitute'] as const) {
      expect(
        some((p) => p.relatedProducts.some((r) => r.relationType === type && r.source === undefined)),
      ).toBe(true);
    }
    expect(some((p) => p.relatedProducts.some((r) => r.source === 'reverse'))).toBe(true);
    expect(some((p) => p.spares.length > 0)).toBe(true);
    expect(some((p) => p.internalNote !== '' && p.costPrice !== null)).toBe(true);
    expect(some((p) => p.archived)).toBe(true);
    expect(some((p) => p.status === 'inactive')).toBe(true);
    expect(some((p) => p.status === 'discontinued')).toBe(true);
    expect(some((p) => Object.keys(p.webVisibility).length > 0)).toBe(true);
    expect(some((p) => p.displayOnWeb === null)).toBe(true);
    expect(some((p) => /[ .]/.test(p.productCode))).toBe(true);
  });

  it('seeding again with the same seed updates the same products instead of adding more', async () => {
    handle = await sqliteStore();
    expect(await seedCatalogue(handle.store, { products: 300, seed: 'x' })).toEqual({
      created: 300,
      updated: 0,
    });
    expect(await seedCatalogue(handle.store, { products: 300, seed: 'x' })).toEqual({
      created: 0,
      updated: 300,
    });
    expect(await handle.store.products.count()).toBe(300);
  });

  it('ensureDemoCatalogue seeds an empty catalogue only', async () => {
    handle = await sqliteStore();
    expect(await ensureDemoCatalogue(handle.store, { products: 200 })).toBe(true);
    expect(await ensureDemoCatalogue(handle.store, { products: 200 })).toBe(false);
    expect(await handle.store.products.count()).toBe(200);
    expect((await handle.store.webChannels.list()).length).toBe(3);
  });

  it('ensureDemoCatalogue run by two processes at once loads the catalogue exactly once', async () => {
    handle = await sqliteStore();
    await handle.store.close();
    const outcomes = await Promise.all([
      run(process.execPath, ['--conditions=source', ENSURE_DEMO, handle.databasePath, '2000']),
      run(process.execPath, ['--conditions=source', ENSURE_DEMO, handle.databasePath, '2000']),
    ]);
    expect(outcomes.map((o) => o.stdout.trim()).sort()).toEqual(['false', 'true']);
    handle.store = openSqliteCatalogStore({ databasePath: handle.databasePath });
    expect(await handle.store.products.count()).toBe(2000);
  });
});
