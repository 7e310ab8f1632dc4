import { DatabaseSync } from 'node:sqlite';
import {
  IdentifierLookupIncompleteError,
  type ProductSearchPage,
  SearchIncompleteError,
  SearchTimeoutError,
} from '@catalog/store';
import { aProduct, TEST_SEARCH_TIMEOUT_MS } from '@catalog/store/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteCatalogStore } from '../../src/engines/index.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

async function withProducts(count: number, options = {}): Promise<SqliteStoreHandle> {
  const handle = await sqliteStore(options);
  for (let start = 0; start < count; start += 2000) {
    const batch = Array.from({ length: Math.min(2000, count - start) }, (_, i) =>
      aProduct({
        name: `widget part ${start + i}`,
        description: 'alpha beta gamma delta',
        brandName: `B${i % 50}`,
      }),
    );
    await handle.store.products.upsertMany(batch);
  }
  return handle;
}

// Facets of a filter with no index to narrow it are grouped from every products row.
const EVERY_ROW = { updatedAfter: '1970-01-01T00:00:00Z', includeAggregations: true, includeArchived: true };

const hits = (page: ProductSearchPage) => ({ total: page.total, ids: page.products.map((p) => p.id) });

function sabotage(databasePath: string, sql: string): void {
  const db = new DatabaseSync(databasePath);
  db.exec(sql);
  db.close();
}

describe('search completeness', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it('a query over its time budget fails with SEARCH_TIMEOUT (504)', async () => {
    // Certainly over a 1 ms budget: the first query of a fresh pool waits for its worker thread to
    // start (tens of milliseconds at best) and then groups facets over every row; a timer that has
    // expired runs before the event loop reads any answer from the worker.
    handle = await withProducts(2_000, { searchTimeoutMs: 1, searchWorkers: 1 });
    const slow = handle.store.productSearch.search(EVERY_ROW);
    await expect(slow).rejects.toBeInstanceOf(SearchTimeoutError);
    await expect(slow).rejects.toMatchObject({
      status: 504,
      code: 'SEARCH_TIMEOUT',
      details: { budgetMs: 1 },
    });
  });

  it('after a timeout the same store answers from a fresh worker: the query queued behind it and the next one', async () => {
    handle = await withProducts(200, { searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS, searchWorkers: 1 });
    const search = handle.store.productSearch;
    const part7 = { q: 'widget part 7', size: 5 };
    // The answer of a store whose worker never timed out.
    const control = openSqliteCatalogStore({
      databasePath: handle.databasePath,
      searchWorkers: 1,
      searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
    });
    const expected = await control.productSearch.search(part7).finally(() => control.close());
    expect(expected.products[0]?.name).toBe('widget part 7');
    // The budget is timed by the clock the test moves, so the first query overruns it however fast
    // the machine: nothing below waits on the event loop until both budgets are set and the first spent.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const overrun = search.search(EVERY_ROW);
      vi.advanceTimersByTime(TEST_SEARCH_TIMEOUT_MS / 2);
      // One worker: this one waits in the port of the worker running the first.
      const queued = search.search(part7);
      vi.advanceTimersByTime(TEST_SEARCH_TIMEOUT_MS / 2);
      await expect(overrun).rejects.toBeInstanceOf(SearchTimeoutError);
      // SQLite cannot be interrupted: the pool abandons that worker and requeues what waited behind it.
      expect(hits(await queued)).toEqual(hits(expected));
    } finally {
      vi.useRealTimers();
    }
    expect(hits(await search.search(part7))).toEqual(hits(expected));
  });

  it('fails with IDENTIFIER_LOOKUP_INCOMPLETE when the identifier probe cannot run', async () => {
    handle = await withProducts(10);
    sabotage(handle.databasePath, 'DROP INDEX products_erp_code_key');
    const search = handle.store.productSearch.search({ q: 'widget' });
    await expect(search).rejects.toBeInstanceOf(IdentifierLookupIncompleteError);
    await expect(search).rejects.toMatchObject({ status: 503, code: 'IDENTIFIER_LOOKUP_INCOMPLETE' });
  });

  it('fails with SEARCH_INCOMPLETE when the engine fails, never with a partial page', async () => {
    handle = await withProducts(10);
    sabotage(
      handle.databasePath,
      'DROP TRIGGER products_fts_insert; DROP TRIGGER products_fts_update; DROP TRIGGER products_fts_delete; DROP TABLE product_fts',
    );
    const search = handle.store.productSearch.search({ q: 'widget' });
    await expect(search).rejects.toBeInstanceOf(SearchIncompleteError);
    await expect(search).rejects.toMatchObject({ status: 503, code: 'SEARCH_INCOMPLETE' });
  });

  it('runs queries off the main thread: the event loop keeps turning while searches are in flight', async () => {
    handle = await withProducts(2_000, { searchWorkers: 1 });
    const searches = Promise.all(
      Array.from({ length: 8 }, () =>
        handle?.store.productSearch.search({ q: 'alpha', includeAggregations: true, sort: 'name' }),
      ),
    );
    let settled = false;
    const done = searches.then(() => {
      settled = true;
    });
    let turns = 0;
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      turns += 1;
    }
    await done;
    // On the main thread the searches would hold the loop until each was done: a turn or so per
    // search. In a worker, the loop turns (microseconds a turn) all the while the thread starts and
    // searches, which takes tens of milliseconds at the very least.
    expect(turns).toBeGreaterThan(100);
  });
});
