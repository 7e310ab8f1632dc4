// `pnpm bench` (search part): bulk load, then a representative query mix at concurrency 1 and 8.
// BENCH_PRODUCTS=100000,1000000 sets the catalogue sizes (default 100000); BENCH_DATA_DIR keeps the
// databases between runs (a database already holding N products of the same seed is reused).
// The same-run baseline of the query table: each query type straight through the engine on the main
// thread (no worker pool, no hop, no cursor signing). Results also go to .bench/results.json for
// scripts/performance-report.mjs.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { openDatabase } from '../src/adapters/sqlite/open-database.ts';
import { readProductsBySeq } from '../src/adapters/sqlite/read-products.ts';
import { readSearchDocuments } from '../src/adapters/sqlite/search/read-search-documents.ts';
import { type Materialise, runProductSearch } from '../src/adapters/sqlite/search/run-product-search.ts';
import {
  type CatalogStore,
  catalogDatabasePath,
  externalProductJson,
  openSqliteCatalogStore,
  type ProductSearchQuery,
  type ProductView,
  REPORTED_TOTAL_CAP,
  rewriteLatestProducts,
  seedCatalogue,
} from '../src/index.ts';
import { normaliseProductQuery } from '../src/search/normalise-product-query.ts';

const SIZES = (process.env.BENCH_PRODUCTS ?? '100000').split(',').map(Number);
const DATA_ROOT = process.env.BENCH_DATA_DIR ?? join(tmpdir(), 'catalog-bench');
const SEED = 'bench';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);
const TYPE_BUDGET_MS = Number(process.env.BENCH_TYPE_BUDGET_MS ?? 6000);
/** Optional substring: measure only the query types whose label contains it. */
const ONLY = process.env.BENCH_ONLY;

interface Sample {
  label: string;
  next: () => ProductSearchQuery;
  /** Runs at c1 (twice as many at c8), when not ITERATIONS. */
  iterations?: number;
}

/**
 * Keyset pages take about a millisecond, and their goal (≤ 2 ms) is a tail: the p99 of 40 runs is
 * their maximum, so they get ten times the runs, over 200 different pages.
 */
const KEYSET_ITERATIONS = ITERATIONS * 10;

/** The view the API searches with: the caller's channel, every field. */
function apiView(query: ProductSearchQuery): ProductView {
  return { channel: query.channel ?? null, withRelationCodes: false };
}

/** Hits as the API's worker builds them: stored documents, records only where none is stored. */
const asDocuments =
  (view: ProductView): Materialise<string> =>
  (db, seqs) =>
    readSearchDocuments(db, seqs, view, readProductsBySeq);

/** Hits rendered from freshly read records: the way every hit was built before migration 6. */
const fromRecords =
  (view: ProductView): Materialise<string> =>
  (db, seqs) =>
    readProductsBySeq(db, seqs).map((record) => externalProductJson(record, view));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function rotating<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/** Products written again after the load, the newest batch the incremental-sync queries ask for. */
const LATEST_BATCH = 5000;

/** Whether the catalogue has a newest batch: more than one updatedAt. */
function hasLatestBatch(db: DatabaseSync): boolean {
  return (
    db.prepare('SELECT DISTINCT updated_at FROM products ORDER BY updated_at DESC LIMIT 1 OFFSET 1').get() !==
    undefined
  );
}

async function load(dir: string, products: number): Promise<{ seconds: number; reused: boolean }> {
  const path = catalogDatabasePath(dir);
  if (existsSync(path)) {
    const db = new DatabaseSync(path, { readOnly: true });
    const n = (db.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n;
    const latest = n > 0 && hasLatestBatch(db);
    db.close();
    if (n === products) {
      if (!latest) {
        const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
        await rewriteLatestProducts(store, { products, seed: SEED }, LATEST_BATCH);
        await store.close();
      }
      return { seconds: Number.NaN, reused: true };
    }
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
  const started = performance.now();
  let lastReport = started;
  await seedCatalogue(store, {
    products,
    seed: SEED,
    batchSize: 5000,
    onProgress: ({ written, total }) => {
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        process.stderr.write(`  loaded ${written}/${total}\n`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  // A load into an empty catalogue gives every product one updatedAt (one transaction).
  await rewriteLatestProducts(store, { products, seed: SEED }, LATEST_BATCH);
  await store.close();
  return { seconds, reused: false };
}

function sampleValues(path: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  const rows = db
    .prepare(
      'SELECT product_code, erp_code, brand_name, updated_at FROM products WHERE archived = 0 AND seq % 997 = 1',
    )
    .all() as Array<{ product_code: string; erp_code: string; brand_name: string; updated_at: number }>;
  // The load wrote the newest batch again after the rest (load()): "after the second-newest stamp" is that batch.
  const recent = (
    db
      .prepare('SELECT DISTINCT updated_at FROM products ORDER BY updated_at DESC LIMIT 1 OFFSET 1')
      .get() as {
      updated_at: number;
    }
  ).updated_at;
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

interface Row {
  label: string;
  c1p50: number;
  c1p99: number;
  c8p50: number;
  c8p99: number;
  n: number;
}

async function measure(store: CatalogStore, sample: Sample, concurrency: number): Promise<number[]> {
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

/**
 * The sync keyset page inside the engine, without the worker hop: locating the next 100 rows (the
 * keyset SQL alone), the whole page with its stored documents as the API's workers build it, and
 * the same pages with every hit rendered from its record (the same-run baseline).
 */
function keysetInEngine(path: string): { locate: number[]; page: number[]; fromRecords: number[] } {
  const db = openDatabase(path, { readOnly: true });
  const query = normaliseProductQuery({ updatedAfter: '1970-01-01T00:00:00Z', size: 100 });
  const view = apiView({});
  const job = { query, after: null, knownTotal: null, totalCap: 10_000 };
  const known = { total: 10_000, totalIsLowerBound: true };
  const locateSql = db.prepare(
    `SELECT seq FROM products p INDEXED BY products_sort_updated_at WHERE (p.updated_at, p.seq) > (?, ?)
     AND p.updated_at > 0 AND p.archived = 0 ORDER BY p.updated_at, p.seq LIMIT 101`,
  );
  const positions = [];
  let outcome = runProductSearch(db, job, asDocuments(view));
  for (let i = 0; i < 200 && outcome.last !== null; i += 1) {
    positions.push(outcome.last);
    outcome = runProductSearch(db, { ...job, after: outcome.last, knownTotal: known }, asDocuments(view));
  }
  const time = (work: () => unknown) => {
    const t = performance.now();
    work();
    return performance.now() - t;
  };
  // Interleaved, so both ways meet the same machine; each page is read twice overall, by both.
  const locate: number[] = [];
  const page: number[] = [];
  const rendered: number[] = [];
  for (const [i, after] of positions.entries()) {
    const pageJob = { ...job, after, knownTotal: known };
    locate.push(time(() => locateSql.all(after.key, after.seq)));
    const documents = () => runProductSearch(db, pageJob, asDocuments(view));
    const records = () => runProductSearch(db, pageJob, fromRecords(view));
    if (i % 2 === 0) {
      page.push(time(documents));
      rendered.push(time(records));
    } else {
      rendered.push(time(records));
      page.push(time(documents));
    }
  }
  db.close();
  return { locate, page, fromRecords: rendered };
}

/**
 * The baseline of the query table's c1 p50: each query type run sequentially on the main thread
 * straight through the engine, as the worker runs it (no pool, no hop, no cursor signing), as many
 * runs as the c1 measurement. Query types that page with a signed sync token have none (the keyset pages in
 * the engine are measured by keysetInEngine).
 */
function queriesInEngine(path: string, samples: readonly Sample[]): Map<string, number[]> {
  const db = openDatabase(path, { readOnly: true });
  const job = (query: ProductSearchQuery) => ({
    query: normaliseProductQuery(query),
    after: null,
    knownTotal: null,
    totalCap: REPORTED_TOTAL_CAP,
  });
  const times = new Map<string, number[]>();
  for (const sample of samples) {
    const warm = sample.next();
    if (warm.syncToken !== undefined) continue;
    runProductSearch(db, job(warm), asDocuments(apiView(warm)));
    const latencies: number[] = [];
    const started = performance.now();
    while (latencies.length < ITERATIONS && performance.now() - started < TYPE_BUDGET_MS) {
      const query = sample.next();
      const next = job(query);
      const materialise = asDocuments(apiView(query));
      const t = performance.now();
      runProductSearch(db, next, materialise);
      latencies.push(performance.now() - t);
    }
    times.set(sample.label, latencies);
  }
  db.close();
  return times;
}

interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  group?: string;
  metric?: string;
}

const round = (value: number) => Number(value.toPrecision(4));

function figure(name: string, value: number, unit: string, more: Partial<Figure> = {}): Figure {
  const out: Figure = { name, value: round(value), unit, ...more };
  if (more.baseline !== undefined) {
    out.baseline = round(more.baseline);
    out.ratio = round(value / more.baseline);
  }
  return out;
}

const figures: Figure[] = [];
/** Sizes whose database was reused from DATA_ROOT, so their bulk load was not measured. */
const reused: number[] = [];

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

async function benchSize(products: number): Promise<void> {
  const dir = join(DATA_ROOT, String(products));
  process.stderr.write(`\n== ${products} products (${dir})\n`);
  const loaded = await load(dir, products);
  const path = catalogDatabasePath(dir);
  const fileMb = (statSync(path).size / 1024 / 1024).toFixed(0);
  const store = openSqliteCatalogStore({ databasePath: path, searchTimeoutMs: 120_000 });
  const samples = (await mix(store, path, products)).filter(
    (s) => ONLY === undefined || s.label.includes(ONLY),
  );
  for (const sample of samples) {
    const query = sample.next();
    await store.productSearch.searchDocuments(query, apiView(query));
  }

  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  const rows: Row[] = [];
  loopDelay.enable();
  for (const sample of samples) {
    const c1 = await measure(store, sample, 1);
    const c8 = await measure(store, sample, 8);
    rows.push({
      label: sample.label,
      c1p50: percentile(c1, 50),
      c1p99: percentile(c1, 99),
      c8p50: percentile(c8, 50),
      c8p99: percentile(c8, 99),
      n: c1.length + c8.length,
    });
    process.stderr.write(
      `  ${sample.label}: c1 p50 ${fmt(percentile(c1, 50))} p99 ${fmt(percentile(c1, 99))}\n`,
    );
  }
  loopDelay.disable();
  await store.close();

  const engine = keysetInEngine(path);
  const engineQueries = queriesInEngine(path, samples);
  const load1 = loaded.reused
    ? 'reused existing database'
    : `${loaded.seconds.toFixed(1)} s (${Math.round(products / loaded.seconds)} products/s)`;
  const out: string[] = [
    '',
    `### ${products.toLocaleString('en')} products`,
    '',
    `- bulk load: ${load1}; database file ${fileMb} MB`,
    `- event loop delay while searching: p50 ${fmt(loopDelay.percentile(50) / 1e6)} ms, p99 ${fmt(loopDelay.percentile(99) / 1e6)} ms, max ${fmt(loopDelay.max / 1e6)} ms`,
    `- peak RSS (whole process, workers included): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    `- sync keyset page inside the engine (no worker hop), 200 consecutive pages of 100: locate p50 ${fmt(percentile(engine.locate, 50))} ms, p99 ${fmt(percentile(engine.locate, 99))} ms; whole page from stored documents p50 ${fmt(percentile(engine.page, 50))} ms, p99 ${fmt(percentile(engine.page, 99))} ms; rendered from records p50 ${fmt(percentile(engine.fromRecords, 50))} ms, p99 ${fmt(percentile(engine.fromRecords, 99))} ms`,
    '',
    '| query | c1 p50 ms | c1 p99 ms | c8 p50 ms | c8 p99 ms | runs |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${fmt(r.c1p50)} | ${fmt(r.c1p99)} | ${fmt(r.c8p50)} | ${fmt(r.c8p99)} | ${r.n} |`,
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);

  if (loaded.reused) reused.push(products);
  const group = `${products.toLocaleString('en')} products`;
  const at = { group };
  figures.push(
    ...(loaded.reused
      ? []
      : [
          figure('bulk load', loaded.seconds, 's', at),
          figure('bulk load rate', products / loaded.seconds, 'products/s', at),
        ]),
    figure('database file', statSync(path).size / 1024 / 1024, 'MB', at),
    figure('peak RSS (process with workers)', process.resourceUsage().maxRSS / 1024, 'MB', at),
    figure('event loop delay while searching, p50', loopDelay.percentile(50) / 1e6, 'ms', at),
    figure('event loop delay while searching, p99', loopDelay.percentile(99) / 1e6, 'ms', at),
    figure('event loop delay while searching, max', loopDelay.max / 1e6, 'ms', at),
    figure('sync keyset page in the engine: locate 100 rows, p50', percentile(engine.locate, 50), 'ms', at),
    figure('sync keyset page in the engine: locate 100 rows, p99', percentile(engine.locate, 99), 'ms', at),
    figure('sync keyset page in the engine, 100 stored documents, p50', percentile(engine.page, 50), 'ms', {
      ...at,
      baseline: percentile(engine.fromRecords, 50),
    }),
    figure('sync keyset page in the engine, 100 stored documents, p99', percentile(engine.page, 99), 'ms', {
      ...at,
      baseline: percentile(engine.fromRecords, 99),
    }),
  );
  const queries = { group: `${group}: queries (ms)` };
  for (const r of rows) {
    const base = engineQueries.get(r.label);
    figures.push(
      figure(r.label, r.c1p50, 'ms', {
        ...queries,
        metric: 'c1 p50',
        ...(base === undefined ? {} : { baseline: percentile(base, 50) }),
      }),
      figure(r.label, r.c1p99, 'ms', { ...queries, metric: 'c1 p99' }),
      figure(r.label, r.c8p50, 'ms', { ...queries, metric: 'c8 p50' }),
      figure(r.label, r.c8p99, 'ms', { ...queries, metric: 'c8 p99' }),
      figure(r.label, r.n, 'runs', { ...queries, metric: 'runs' }),
    );
  }
}

for (const products of SIZES) await benchSize(products);

const resultsDir = new URL('../.bench/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  new URL('results.json', resultsDir),
  `${JSON.stringify(
    {
      part: 'search',
      title: 'Store and search engine (packages/catalog-store)',
      command: `BENCH_PRODUCTS=${SIZES.join(',')} pnpm --filter @catalog/store run bench`,
      finishedAt: new Date().toISOString(),
      loadAverage: loadavg().map(round),
      parameters: {
        products: SIZES.join(','),
        seed: SEED,
        iterationsC1: ITERATIONS,
        iterationsC8: ITERATIONS * 2,
        iterationsKeysetC1: KEYSET_ITERATIONS,
        typeBudgetMs: TYPE_BUDGET_MS,
        only: ONLY ?? 'all query types',
      },
      figures,
      notes: [
        "Query times are end to end as the API sees them (searchDocuments with the caller's view): worker pool, hop and 20 (or 100) hits as JSON included; c8 queues on the pool (2 workers on 2 vCPUs).",
        'Baseline (c1 p50 only; a p99 of 40 runs is too noisy to divide): the same query type straight through the engine on the main thread, sequential, no pool, no hop, no cursor signing, measured after the table in the same run; the ratio is what the pool and the hop add. Keyset pages (signed sync token) have no per-query baseline: see the keyset page in the engine.',
        'Keyset page in the engine: baseline = the same 200 pages with every hit rendered from its record (the way before stored documents), interleaved in the same run.',
        'The other figures (bulk load, file, RSS, event-loop delay, keyset locate) are absolute.',
        ...(reused.length === 0
          ? []
          : [
              `Bulk load not measured for ${reused.map((n) => n.toLocaleString('en')).join(', ')} products: the database under ${DATA_ROOT} was reused (delete it to measure the load).`,
            ]),
      ],
    },
    null,
    2,
  )}\n`,
);
