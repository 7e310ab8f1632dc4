import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/sqlite/migrate.ts';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { openDatabase } from '../../src/adapters/sqlite/open-database.ts';
import { catalogDatabasePath, type ProductInput } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import {
  openSqliteCatalogStore,
  type SqliteStoreHandle,
  sqliteStore,
  TEST_SEARCH_TIMEOUT_MS,
  tempDataDir,
} from '../support/sqlite-factory.ts';

// The product full-text index decides the archived state itself, so that text counts and relevance
// pages need not read the products rows: migration 3 indexed it as a token, migration 4 indexes a
// live product's text and an archived product's text in separate columns. These pin what that must
// not change.
describe('archived state in the product full-text index', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('counts text matches without archived ones, with them on includeArchived, and follows archive/restore', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    const inputs = Array.from({ length: 5 }, (_, i) => aProduct({ name: `Gasket ${i}` }));
    const ids: string[] = [];
    for (const input of inputs) ids.push((await store.products.create(input)).id);
    const [first, second] = ids as [string, string];
    await store.products.archive(first);
    await store.products.archive(second);
    // size 1: the count runs (the page does not hold every match).
    expect(await store.productSearch.search({ q: 'gasket', size: 1 })).toMatchObject({
      total: 3,
      hasMore: true,
    });
    expect(await store.productSearch.search({ q: 'gasket', size: 1, includeArchived: true })).toMatchObject({
      total: 5,
    });
    await store.products.replace(first, { ...inputs[0], archived: false } as ProductInput);
    expect(await store.productSearch.search({ q: 'gasket', size: 1 })).toMatchObject({ total: 4 });
  });

  it('pages relevance order through live matches only, or through all on includeArchived', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1)
      ids.push((await store.products.create(aProduct({ name: `Bushing ${i}` }))).id);
    await store.products.archive(ids[1] as string);
    await store.products.archive(ids[4] as string);
    const walk = async (includeArchived: boolean) => {
      const seen: string[] = [];
      let page = await store.productSearch.search({ q: 'bushing', size: 2, includeArchived });
      seen.push(...page.products.map((p) => p.id));
      while (page.syncToken !== null) {
        page = await store.productSearch.search({ q: 'bushing', syncToken: page.syncToken, includeArchived });
        seen.push(...page.products.map((p) => p.id));
      }
      return seen;
    };
    expect(await walk(false)).toEqual([ids[0], ids[2], ids[3], ids[5]]);
    expect(await walk(true)).toEqual(ids);
  });

  it('never matches a term against the archived state ("0" or "1")', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    // Codes without digits: "0"* and "1"* must find nothing in any text column either.
    const live = await store.products.create(aProduct({ name: 'Valve', productCode: 'VX-AA' }));
    const gone = await store.products.create(aProduct({ name: 'Valve', productCode: 'VX-BB' }));
    await store.products.archive(gone.id);
    for (const q of ['0', '1', 'valve 0', 'valve 1']) {
      for (const size of [1, 100]) {
        const page = await store.productSearch.search({ q, size, includeArchived: true });
        expect(page.total, `q=${q} size=${size}`).toBe(0);
      }
    }
    expect((await store.productSearch.search({ q: 'valve', size: 1 })).products.map((p) => p.id)).toEqual([
      live.id,
    ]);
  });

  it.each([2, 3])('indexes the archived state of products written on schema %i', async (schema) => {
    const dir = tempDataDir();
    const path = catalogDatabasePath(dir);
    const db = openDatabase(path);
    migrate(db, MIGRATIONS.slice(0, schema));
    db.close();
    // Products written through raw SQL, as an older release would have.
    const raw = new DatabaseSync(path);
    const insert = raw.prepare(
      `INSERT INTO products (id, product_code, product_code_key, name, archived, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 1, 1)`,
    );
    for (let i = 0; i < 4; i += 1) insert.run(`id-${i}`, `C-${i}`, `c-${i}`, `Flange ${i}`, i < 3 ? 0 : 1);
    raw.close();
    const store = openSqliteCatalogStore({
      databasePath: path,
      searchWorkers: 1,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
    });
    handle = {
      store,
      databasePath: path,
      dir,
      location: { engine: 'sqlite', databasePath: path },
      dispose: async () => store.close(),
    };
    expect(await store.productSearch.search({ q: 'flange', size: 1 })).toMatchObject({ total: 3 });
    expect(await store.productSearch.search({ q: 'flange', size: 1, includeArchived: true })).toMatchObject({
      total: 4,
    });
    expect(await store.productSearch.search({ q: 'flange 3', size: 10 })).toMatchObject({ total: 0 });
    expect(
      (await store.productSearch.search({ q: 'flange 3', size: 10, includeArchived: true })).products,
    ).toHaveLength(1);
  });
});
