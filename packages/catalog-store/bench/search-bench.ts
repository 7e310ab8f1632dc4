// `pnpm bench` (search part): bulk load, then a representative query mix at concurrency 1 and 8.
// BENCH_PRODUCTS=100000,1000000 sets the catalogue sizes (default 100000); BENCH_DATA_DIR keeps the
// databases between runs (a database already holding N products of the same seed is reused).
// The same-run baseline of the query table: each query type straight through the engine on the main
// thread (no worker pool, no hop, no cursor signing). Results also go to .bench/results.json for
// scripts/performance-report.mjs.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Figure, figure, fmt, writeBenchResults } from '@catalog/bench-results';
import { openSqliteCatalogStore } from '../../catalog-search/src/engines/index.ts';
import { readSearchDocuments } from '../../catalog-search/src/engines/sqlite-fts5/read-search-documents.ts';
import {
  type Materialise,
  runProductSearch,
} from '../../catalog-search/src/engines/sqlite-fts5/run-product-search.ts';
import { normaliseProductQuery } from '../../catalog-search/src/query/normalise-product-query.ts';
import { openDatabase } from '../src/adapters/sqlite/open-database.ts';
import { readProductsBySeq } from '../src/adapters/sqlite/records/read-products.ts';
import {
  catalogDatabasePath,
  externalProductJson,
  type ProductSearchQuery,
  type ProductView,
  REPORTED_TOTAL_CAP,
} from '../src/index.ts';
import { DATA_ROOT, loadSqliteCatalogue, SEED, SIZES } from './bench-catalogue.ts';
import {
  apiView,
  ITERATIONS,
  KEYSET_ITERATIONS,
  measure,
  ONLY,
  percentile,
  type Sample,
  selectedMix,
  TYPE_BUDGET_MS,
  warm,
} from './query-mix.ts';

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

interface Row {
  label: string;
  c1p50: number;
  c1p99: number;
  c8p50: number;
  c8p99: number;
  n: number;
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
    // The FTS5 engine's position key is [bucket, sort key].
    locate.push(time(() => locateSql.all(after.key[1] ?? null, after.seq)));
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

const figures: Figure[] = [];
/** Sizes whose database was reused from DATA_ROOT, so their bulk load was not measured. */
const reused: number[] = [];

async function benchSize(products: number): Promise<void> {
  const dir = join(DATA_ROOT, String(products));
  process.stderr.write(`\n== ${products} products (${dir})\n`);
  const loaded = await loadSqliteCatalogue(dir, products);
  const path = catalogDatabasePath(dir);
  const fileMb = (statSync(path).size / 1024 / 1024).toFixed(0);
  const store = openSqliteCatalogStore({ databasePath: path, searchTimeoutMs: 120_000 });
  const samples = await selectedMix(store, path, products);
  await warm(store, samples);

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

writeBenchResults(new URL('../.bench/results.json', import.meta.url), {
  part: 'search',
  title: 'Store and search engine (packages/catalog-store)',
  command: `BENCH_PRODUCTS=${SIZES.join(',')} pnpm --filter @catalog/store run bench`,
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
});
