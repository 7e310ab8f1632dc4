import type { DatabaseSync } from 'node:sqlite';
import type { ProductSearchQuery } from '@catalog/store';
import { openDatabase } from '@catalog/store/sqlite-reading';
import { aProduct } from '@catalog/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CursorPosition, EnginePage } from '../../src/engine/search-engine.ts';
import { runProductSearch } from '../../src/engines/sqlite-fts5/run-product-search.ts';
import { normaliseProductQuery } from '../../src/query/normalise-product-query.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const PRODUCTS = 1_200;
/** A cap far below the matches, so that text searches saturate on a small catalogue. */
const TOTAL_CAP = 50;

/**
 * Every 12th product does not match "alpha" (dense matches, 91%). The non-matching products sort
 * first by category and last by price; every 7th product is archived.
 */
function catalogue() {
  return Array.from({ length: PRODUCTS }, (_, i) => {
    const matches = i % 12 !== 0;
    return aProduct({
      name: `${matches ? 'Alpha' : 'Omega'} part ${(i * 7919) % PRODUCTS}`,
      category: matches ? `Z${i % 5}` : 'A',
      price: matches ? (i * 37) % 500 : 1_000 + i,
    });
  });
}

// Above the cap, a sorted text search walks the sort index. Over dense matches it probes each
// walked row in the full-text index (text-buckets.ts, probedWalk) within a budget, and lists the
// matches when the budget runs out. Both must give the order of the plain SQL query.
describe('sorted walks over saturated text matches', () => {
  let handle: SqliteStoreHandle;
  let db: DatabaseSync;
  let executed: string[];

  beforeAll(async () => {
    handle = await sqliteStore();
    const products = catalogue();
    for (let i = 0; i < products.length; i += 400)
      await handle.store.products.upsertMany(products.slice(i, i + 400));
    for (const [i, product] of products.entries())
      if (i % 7 === 3) await handle.store.products.archive(product.id as string);
    db = openDatabase(handle.databasePath, { readOnly: true });
    // Statements are prepared once per connection: record each run, not each prepare.
    const prepare = db.prepare.bind(db);
    db.prepare = (sql: string) => {
      const statement = prepare(sql);
      const all = statement.all.bind(statement) as (...params: unknown[]) => ReturnType<typeof statement.all>;
      statement.all = ((...params: unknown[]) => {
        executed.push(sql);
        return all(...params);
      }) as typeof statement.all;
      return statement;
    };
  });
  afterAll(async () => {
    db.close();
    await handle.dispose();
  });

  /** The plain query: every live match, sorted, ties by seq. */
  const expected = (column: string, direction: 'ASC' | 'DESC') =>
    (
      db
        .prepare(
          `SELECT seq FROM products WHERE archived = 0
           AND seq IN (SELECT rowid FROM product_fts WHERE product_fts MATCH 'alpha*')
           ORDER BY ${column} ${direction}, seq ${direction}`,
        )
        .all() as Array<{ seq: number }>
    ).map((row) => row.seq);

  /** Walks the whole result page by page through the engine's cursor positions. */
  const walk = (query: ProductSearchQuery) => {
    executed = [];
    const normalised = normaliseProductQuery(query);
    const seqs: number[] = [];
    let after: CursorPosition | null = null;
    let knownTotal: { total: number; totalIsLowerBound: boolean } | null = null;
    for (;;) {
      const page: EnginePage<number> = runProductSearch(
        db,
        { query: normalised, after, knownTotal, totalCap: TOTAL_CAP },
        (_, s) => [...s],
      );
      seqs.push(...page.hits);
      expect(page).toMatchObject({ total: TOTAL_CAP, totalIsLowerBound: true });
      if (!page.hasMore || page.last === null) return seqs;
      after = page.last;
      knownTotal = { total: page.total, totalIsLowerBound: page.totalIsLowerBound };
    }
  };
  /** The first page of `query`, recording the statements it ran. */
  const firstPage = (query: ProductSearchQuery): EnginePage<number> => {
    executed = [];
    const job = { query: normaliseProductQuery(query), after: null, knownTotal: null, totalCap: TOTAL_CAP };
    return runProductSearch(db, job, (_, seqs) => [...seqs]);
  };
  const probed = () => executed.some((sql) => sql.includes('product_fts.rowid = w.seq'));
  const listed = () => executed.some((sql) => sql.includes('p.seq IN (SELECT rowid FROM product_fts'));

  it('a first page over dense matches comes from probing the walked rows, in the order of the column', () => {
    for (const [sort, column, order] of [
      ['price', 'price_sort', 'asc'],
      ['name', 'name', 'asc'],
      ['category', 'category', 'desc'],
    ] as const) {
      const page = firstPage({ q: 'alpha', sort, order, size: 1 });
      expect(page.hits, `${sort} ${order}`).toEqual(
        expected(column, order === 'asc' ? 'ASC' : 'DESC').slice(0, 1),
      );
      expect([probed(), listed()], `${sort} ${order}`).toEqual([true, false]);
    }
  });

  it('matches gathered late in the order (past the walk budget) are listed instead, in the same order', () => {
    const page = firstPage({ q: 'alpha', sort: 'category', order: 'asc', size: 1 });
    expect(page.hits).toEqual(expected('category', 'ASC').slice(0, 1));
    expect(probed()).toBe(true);
    expect(listed()).toBe(true);
  });

  it('a term FTS5 would merge for every probed row (a prefix it cannot expand) is listed, never probed', () => {
    const page = firstPage({ q: 'alpha-part', sort: 'price', order: 'asc', size: 1 });
    expect(page.hits).toEqual(expected('price_sort', 'ASC').slice(0, 1));
    expect([probed(), listed()]).toEqual([false, true]);
  });

  it('a keyset walk through every page visits each live match once, in order, whichever way each page went', () => {
    expect(walk({ q: 'alpha', sort: 'price', order: 'asc', size: 3 })).toEqual(expected('price_sort', 'ASC'));
    expect(walk({ q: 'alpha', sort: 'price', order: 'desc', size: 1 })).toEqual(
      expected('price_sort', 'DESC'),
    );
    expect(walk({ q: 'alpha', sort: 'category', order: 'desc', size: 20 })).toEqual(
      expected('category', 'DESC'),
    );
    expect(walk({ q: 'alpha', sort: 'name', order: 'asc', size: 2 })).toEqual(expected('name', 'ASC'));
  });

  it('skipping archived products while walking a sort index reads the index alone', () => {
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT p.seq, p.name FROM products p INDEXED BY products_sort_name
         WHERE p.archived = 0 ORDER BY p.name, p.seq LIMIT 10`,
      )
      .all() as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join('; ')).toContain('COVERING INDEX products_sort_name');
  });
});
