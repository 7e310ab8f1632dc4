import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IdentifierLookupIncompleteError,
  openSqliteCatalogStore,
  SearchIncompleteError,
  SearchTimeoutError,
} from '../../src/index.ts';
import { aProduct, delay } from '../support/products.ts';
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

  it('a query over its time budget fails with SEARCH_TIMEOUT, and the pool keeps serving', async () => {
    handle = await withProducts(20_000, { searchTimeoutMs: 1, searchWorkers: 1 });
    const slow = handle.store.productSearch.search({
      q: 'widget',
      includeAggregations: true,
      includeArchived: true,
    });
    await expect(slow).rejects.toBeInstanceOf(SearchTimeoutError);
    await expect(slow).rejects.toMatchObject({ status: 504, code: 'SEARCH_TIMEOUT' });
    handle.store = openSqliteCatalogStore({ databasePath: handle.databasePath, searchTimeoutMs: 5000 });
    await expect(handle.store.productSearch.search({ q: 'widget', size: 1 })).resolves.toMatchObject({
      total: 10_000,
    });
  });

  it('after a timeout the same store answers the next query from a fresh worker', async () => {
    handle = await withProducts(20_000, { searchTimeoutMs: 150, searchWorkers: 1 });
    // Facets of a filter with no index to narrow it are grouped from every products row: slow.
    const everyRow = {
      updatedAfter: '1970-01-01T00:00:00Z',
      includeAggregations: true,
      includeArchived: true,
    };
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => handle?.store.productSearch.search(everyRow)),
    );
    expect(results.some((r) => r.status === 'rejected' && r.reason instanceof SearchTimeoutError)).toBe(true);
    // SQLite cannot be interrupted: let the abandoned statements finish before measuring again.
    await delay(1500);
    await expect(handle.store.productSearch.search({ q: 'widget part 7', size: 1 })).resolves.toBeDefined();
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

  it('runs queries off the main thread: timers keep firing while heavy searches are in flight', async () => {
    handle = await withProducts(20_000);
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 1);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, () =>
        handle?.store.productSearch.search({ q: 'alpha', includeAggregations: true, sort: 'name' }),
      ),
    );
    const elapsed = performance.now() - started;
    loopDelay.disable();
    clearInterval(ticker);
    // A blocked loop would tick once at the end; a free one ticks all along.
    expect(ticks).toBeGreaterThan(Math.min(20, elapsed / 10));
    expect(loopDelay.percentile(50) / 1e6).toBeLessThan(20);
  });
});
