// The representative query mix of the store's benches (search-bench.ts, postgres-bench.ts): the query
// types, the values they draw from the catalogue, and how a type is timed at a concurrency.
import { DatabaseSync } from 'node:sqlite';
import type { CatalogStore, ProductSearchQuery, ProductView } from '../src/index.ts';

export const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
export const TYPE_BUDGET_MS = Number(process.env.BENCH_TYPE_BUDGET_MS ?? 6000);
/** Optional substring: measure only the query types whose label contains it. */
export const ONLY = process.env.BENCH_ONLY;

export interface Sample {
  label: string;
  next: () => ProductSearchQuery;
  /** Runs at c1 (twice as many at c8), when not ITERATIONS. */
  iterations?: number;
}

/**
 * Keyset pages take about a millisecond, and their goal (≤ 2 ms) is a tail: the p99 of 40 runs is
 * their maximum, so they get ten times the runs, over 200 different pages.
 */
export const KEYSET_ITERATIONS = ITERATIONS * 10;

/** The view the API searches with: the caller's channel, every field. */
export function apiView(query: ProductSearchQuery): ProductView {
  return { channel: query.channel ?? null, withRelationCodes: false };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function rotating<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/** Values drawn from a catalogue database with the embedded engine's schema (a replica has it too). */
function sampleValues(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  const rows = db
    .prepare(
      'SELECT product_code, erp_code, brand_name, updated_at FROM products WHERE archived = 0 AND seq % 997 = 1',
    )
    .all() as Array<{ product_code: string; erp_code: string; brand_name: string; updated_at: number }>;
  // The load wrote the newest batch again after the rest (bench-catalogue.ts): "after the
  // second-newest stamp" is that batch. A catalogue no larger than that batch was written again
  // whole, in one transaction, so it has one stamp: "recent" is then just before it.
  const stamps = db
    .prepare('SELECT DISTINCT updated_at FROM products ORDER BY updated_at DESC LIMIT 2')
    .all() as Array<{ updated_at: number }>;
  const recent = stamps[1]?.updated_at ?? (stamps[0]?.updated_at ?? 1) - 1;
  db.close();
  return {
    codes: rows.map((r) => r.product_code),
    erpCodes: rows.map((r) => r.erp_code).filter((c) => c !== ''),
    brands: [...new Set(rows.map((r) => r.brand_name))],
    recentIso: new Date(recent).toISOString(),
  };
}

async function deepTokens(store: CatalogStore, query: ProductSearchQuery, depthPages: number, count: number) {
  const tokens: string[] = [];
  const view = apiView(query);
  let page = await store.productSearch.searchDocuments({ ...query, size: 100 }, view);
  for (let i = 0; i < depthPages + count && page.syncToken !== null; i += 1) {
    if (i >= depthPages) tokens.push(page.syncToken);
    page = await store.productSearch.searchDocuments(
      { ...query, size: 100, syncToken: page.syncToken },
      view,
    );
  }
  return tokens;
}

/**
 * The query types, over `products` products: values come from the SQLite file at `path`, syncTokens
 * from `store` itself (a token is signed by the store that issued it).
 */
async function mix(store: CatalogStore, path: string, products: number): Promise<Sample[]> {
  const values = sampleValues(path);
  const sync: ProductSearchQuery = { updatedAfter: '1970-01-01T00:00:00Z' };
  const deepPages = Math.min(Math.floor(products / 100) - 50, 2000);
  const deep = rotating(await deepTokens(store, sync, deepPages, 200));
  const sortedDeep = rotating(
    await deepTokens(store, { sort: 'name', order: 'asc' }, Math.min(deepPages, 300), 200),
  );
  const oneTerm = rotating(['elbow', 'drill', 'radiator', 'valve', 'cable', 'socket', 'brass', 'compact']);
  const twoTerms = rotating(['brass elbow', 'combi drill', 'panel radiator', 'ball valve', 'chrome socket']);
  const threeTerms = rotating(['compact chrome radiator', 'premium brass elbow', 'heavy-duty combi drill']);
  const code = rotating(values.codes);
  const erp = rotating(values.erpCodes);
  const brand = rotating(values.brands);
  const sorts = [
    'name',
    'code',
    'brand',
    'price',
    'category',
    'department',
    'subDepartment',
    'supplierCost',
    'createdAt',
    'updatedAt',
  ] as const;
  return [
    { label: 'q 1 term', next: () => ({ q: oneTerm() }) },
    { label: 'q 2 terms', next: () => ({ q: twoTerms() }) },
    { label: 'q 3 terms', next: () => ({ q: threeTerms() }) },
    { label: 'q prefix "rad"', next: () => ({ q: 'rad' }) },
    { label: 'identifier productCode', next: () => ({ q: code() }) },
    { label: 'identifier erpCode', next: () => ({ q: erp() }) },
    { label: 'brandName filter', next: () => ({ brandName: brand() }) },
    { label: 'brandName + q', next: () => ({ brandName: brand(), q: oneTerm() }) },
    ...sorts.map(
      (sort, i): Sample => ({
        label: `sort ${sort}`,
        next: () => ({ sort, order: i % 2 === 0 ? 'asc' : 'desc' }),
      }),
    ),
    { label: 'q 1 term + sort price', next: () => ({ q: oneTerm(), sort: 'price', order: 'asc' }) },
    { label: 'q 2 terms + sort name', next: () => ({ q: twoTerms(), sort: 'name', order: 'asc' }) },
    { label: 'displayOnWeb (bound channel)', next: () => ({ displayOnWeb: true, channel: 'main-site' }) },
    {
      label: 'offset from=5000 sort name',
      next: () => ({ sort: 'name', order: 'asc', from: 5000, size: 20 }),
    },
    { label: 'sync first page (1970, size 100)', next: () => ({ ...sync, size: 100 }) },
    { label: 'sync incremental (last batch)', next: () => ({ updatedAfter: values.recentIso, size: 100 }) },
    {
      label: `sync keyset page at depth ${deepPages * 100}`,
      next: () => ({ ...sync, size: 100, syncToken: deep() }),
      iterations: KEYSET_ITERATIONS,
    },
    {
      label: 'keyset page sort name',
      next: () => ({ sort: 'name', order: 'asc', size: 100, syncToken: sortedDeep() }),
      iterations: KEYSET_ITERATIONS,
    },
    { label: 'aggregations q 1 term', next: () => ({ q: oneTerm(), includeAggregations: true }) },
    { label: 'aggregations q 2 terms', next: () => ({ q: twoTerms(), includeAggregations: true }) },
    { label: 'aggregations brandName', next: () => ({ brandName: brand(), includeAggregations: true }) },
    { label: 'aggregations whole catalogue', next: () => ({ includeAggregations: true }) },
  ];
}

/** The query types `mix` gives, less those BENCH_ONLY leaves out. */
export async function selectedMix(store: CatalogStore, path: string, products: number): Promise<Sample[]> {
  return (await mix(store, path, products)).filter((s) => ONLY === undefined || s.label.includes(ONLY));
}

/** Each query type once: first reads and plans are not what is measured. */
export async function warm(store: CatalogStore, samples: readonly Sample[]): Promise<void> {
  for (const sample of samples) {
    const query = sample.next();
    await store.productSearch.searchDocuments(query, apiView(query));
  }
}

/** Latencies (ms) of one query type end to end as the API calls it, `concurrency` callers at once. */
export async function measure(store: CatalogStore, sample: Sample, concurrency: number): Promise<number[]> {
  const latencies: number[] = [];
  const started = performance.now();
  const target = (sample.iterations ?? ITERATIONS) * (concurrency === 1 ? 1 : 2);
  const loop = async () => {
    while (latencies.length < target && performance.now() - started < TYPE_BUDGET_MS) {
      const t = performance.now();
      const query = sample.next();
      await store.productSearch.searchDocuments(query, apiView(query));
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return latencies;
}
