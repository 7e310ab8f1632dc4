// `pnpm bench` (PostgreSQL part): the PostgreSQL deployment (records in PostgreSQL, search answered by
// the instance's SQLite replica of the change feed) beside the embedded default, on the generated
// catalogue search-bench.ts searches (same seed, same embedded database under BENCH_DATA_DIR): bulk
// import, the replica's initial build, the query mix end to end at c1 and c8, write-to-searchable
// lag, and `catalog copy` of the embedded catalogue into PostgreSQL.
// BENCH_DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/postgres); the bench
// creates its own databases there, catalog_bench_<size> and catalog_bench_copy_<size>, and drops them
// when done, except that with BENCH_DATA_DIR set catalog_bench_<size> is kept for the next run, which
// reuses it while it still holds the catalogue (its import is then not measured). Results go to
// .bench/postgres-results.json for scripts/performance-report.mjs.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Figure, figure, fmt, round, writeBenchResults } from '@catalog/bench-results';
import { openCatalogue, selectEngines } from '../../catalog-engines/src/index.ts';
import {
  openSqliteCatalogStore,
  openSqliteReplicaSearch as openSqliteSearchReplica,
  SEARCH_REPLICA_FILE_NAME,
} from '../../catalog-search/src/engines/index.ts';
import { FeedFollower } from '../../catalog-search/src/follower/feed-follower.ts';
import { openPostgresRecordStore } from '../src/adapters/postgres/index.ts';
import {
  type CatalogStore,
  catalogDatabasePath,
  copySqliteToPostgres,
  type ProductInput,
  type RecordStore,
  rewriteLatestProducts,
  SearchIncompleteError,
  seedCatalogue,
} from '../src/index.ts';
import { brandCount, generateProduct } from '../src/seed/generate-catalogue.ts';
import { seedNumber } from '../src/seed/prng.ts';
import { onDatabase } from '../src/testing/index.ts';
import { DATA_ROOT, LATEST_BATCH, loadSqliteCatalogue, SEED, SEED_BATCH, SIZES } from './bench-catalogue.ts';
import {
  apiView,
  ITERATIONS,
  measure,
  ONLY,
  percentile,
  type Sample,
  selectedMix,
  warm,
} from './query-mix.ts';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The deployment's SEARCH_ENGINE (unset: the PostgreSQL records engine's default). */
const SEARCH_ENGINE = process.env.BENCH_SEARCH_ENGINE || undefined;
/** The caller asked to keep the databases between runs (search-bench keeps its SQLite ones there). */
const KEEP_DATABASES = process.env.BENCH_DATA_DIR !== undefined;
const LAG_WRITES = 200;
const LAG_PACE_MS = 20;
/** FeedFollower's default: how often a replica reads the feed when no search asks. */
const POLL_INTERVAL_MS = 100;
/**
 * Products the lag measurement writes carry this code prefix: a kept database holds them after the
 * run, and they are not part of the generated catalogue.
 */
const LAG_CODE_PREFIX = 'BENCHLAG-';
const RUN_STAMP = Date.now().toString(36);
/** Figure names scripts/performance-report.mjs reads the goals from. */
const IMPORT = 'bulk import into PostgreSQL (seedCatalogue, empty database)';
const REPLICA_BUILD = 'replica initial build (openCatalogue, empty replica directory)';

function databaseUrl(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function dropDatabase(name: string): Promise<void> {
  await onDatabase(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function recreateDatabase(name: string): Promise<void> {
  await dropDatabase(name);
  await onDatabase(SERVER_URL, (client) => client.query(`CREATE DATABASE ${name}`));
}

/** Whether the database exists and holds the generated catalogue's `products` products. */
async function holdsCatalogue(name: string, products: number): Promise<boolean> {
  const exists = await onDatabase(SERVER_URL, (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  if (exists.rowCount === 0) return false;
  const count = await onDatabase(databaseUrl(name), (client) =>
    client
      .query<{ n: string }>('SELECT count(*) AS n FROM products WHERE product_code NOT LIKE $1', [
        `${LAG_CODE_PREFIX}%`,
      ])
      .then((result) => Number(result.rows[0]?.n))
      // No products table: not a catalogue.
      .catch(() => 0),
  );
  return count === products;
}

/** What a bulk load writes to on PostgreSQL: the replicas have their own search indexes to keep. */
const loadTarget = (records: RecordStore) => ({ ...records, compactSearchIndex: async () => undefined });

/**
 * The catalogue in catalog_bench_<size>, seeded from an empty database as search-bench seeds the
 * embedded one (its newest batch written again after the rest); `seconds` is the seed's.
 */
async function loadPostgresCatalogue(
  name: string,
  products: number,
): Promise<{ seconds: number; reused: boolean }> {
  const spec = { products, seed: SEED };
  if (KEEP_DATABASES && (await holdsCatalogue(name, products))) {
    const records = await openPostgresRecordStore({ url: databaseUrl(name) });
    // Again: the previous run's lag writes are newer than its newest batch, the incremental sync's.
    await rewriteLatestProducts(records, spec, LATEST_BATCH);
    await records.close();
    return { seconds: Number.NaN, reused: true };
  }
  await recreateDatabase(name);
  const records = await openPostgresRecordStore({ url: databaseUrl(name) });
  try {
    const started = performance.now();
    await seedCatalogue(loadTarget(records), { ...spec, batchSize: SEED_BATCH });
    const seconds = (performance.now() - started) / 1000;
    await rewriteLatestProducts(records, spec, LATEST_BATCH);
    return { seconds, reused: false };
  } finally {
    await records.close();
  }
}

/** The same seed into an empty embedded database, when this run did not already time one. */
async function sqliteSeedSeconds(products: number, shared: { seconds: number; reused: boolean }) {
  if (!shared.reused) return shared.seconds;
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bench-seed-'));
  const store = openSqliteCatalogStore({ databasePath: catalogDatabasePath(dir), searchWorkers: 1 });
  try {
    const started = performance.now();
    await seedCatalogue(store, { products, seed: SEED, batchSize: SEED_BATCH });
    return (performance.now() - started) / 1000;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The deployment as the API opens it, its replica built from nothing in a new directory. */
async function openDeployment(url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-bench-replica-'));
  const started = performance.now();
  const store = await openCatalogue(selectEngines({ engine: 'postgres', url, dataDir }, SEARCH_ENGINE), {
    searchTimeoutMs: 120_000,
  });
  return {
    store,
    dataDir,
    replicaPath: join(dataDir, SEARCH_REPLICA_FILE_NAME),
    buildSeconds: (performance.now() - started) / 1000,
  };
}

interface Side {
  c1: number[];
  c8: number[];
}

/**
 * Each query type on both deployments, interleaved (embedded c1, PostgreSQL c1, embedded c8,
 * PostgreSQL c8) so that both meet the same machine: other work runs on it.
 */
async function compareQueries(
  embedded: CatalogStore,
  embeddedMix: readonly Sample[],
  postgres: CatalogStore,
  postgresMix: readonly Sample[],
): Promise<Array<{ label: string; embedded: Side; postgres: Side }>> {
  const rows = [];
  for (const [i, sample] of embeddedMix.entries()) {
    const twin = postgresMix[i] as Sample;
    const e1 = await measure(embedded, sample, 1);
    const p1 = await measure(postgres, twin, 1);
    const e8 = await measure(embedded, sample, 8);
    const p8 = await measure(postgres, twin, 8);
    rows.push({ label: sample.label, embedded: { c1: e1, c8: e8 }, postgres: { c1: p1, c8: p8 } });
    process.stderr.write(
      `  ${sample.label}: c1 p99 PostgreSQL ${fmt(percentile(p1, 99))} vs embedded ${fmt(percentile(e1, 99))}\n`,
    );
  }
  return rows;
}

/** Products no catalogue has: generated ones with a fresh id and a code of their own. */
function lagProducts(products: number): () => ProductInput {
  const seed = seedNumber(SEED);
  const brands = brandCount(products);
  let i = 0;
  return () => {
    const index = i++;
    return {
      ...generateProduct(seed, index, brands),
      id: randomUUID(),
      productCode: `${LAG_CODE_PREFIX}${RUN_STAMP}-${index}`,
      archived: false,
    };
  };
}

/** Writes LAG_WRITES products paced LAG_PACE_MS apart; `until` resolves once the written one counts. */
async function pacedWrites(
  writer: RecordStore,
  next: () => ProductInput,
  until: (product: ProductInput) => Promise<void>,
): Promise<number[]> {
  const lags: number[] = [];
  for (let i = 0; i < LAG_WRITES; i += 1) {
    const started = performance.now();
    const product = next();
    await writer.products.create(product);
    const written = performance.now();
    await until(product);
    lags.push(performance.now() - written);
    await sleep(Math.max(0, LAG_PACE_MS - (performance.now() - started)));
  }
  return lags;
}

/** Whether a search by the product's code finds it; a 503 (the replica did not catch up in time) does not. */
async function finds(store: CatalogStore, product: ProductInput): Promise<boolean> {
  try {
    const page = await store.productSearch.searchDocuments({ q: product.productCode }, apiView({}));
    return page.documents.some((document) => (JSON.parse(document) as { id: string }).id === product.id);
  } catch (error) {
    if (error instanceof SearchIncompleteError) return false;
    throw error;
  }
}

/** From each write's resolution until the deployment's search finds it (the next search normally does). */
async function searchableLag(store: CatalogStore, writer: RecordStore, next: () => ProductInput) {
  let misses = 0;
  const lags = await pacedWrites(writer, next, async (product) => {
    while (!(await finds(store, product))) misses += 1;
  });
  return { lags, misses };
}

/**
 * From each write's resolution until a replica that nothing searches has applied it: its follower
 * polls the feed every POLL_INTERVAL_MS. The replica is the deployment's, reopened once it closed.
 */
async function backgroundLag(
  url: string,
  replicaPath: string,
  writer: RecordStore,
  next: () => ProductInput,
) {
  const source = await openPostgresRecordStore({ url, maxConnections: 2 });
  const replica = await openSqliteSearchReplica(
    { databasePath: replicaPath, searchWorkers: 1 },
    { origin: await source.changes.origin(), head: await source.changes.head() },
  );
  const follower = new FeedFollower(source.changes, replica.target, { pollIntervalMs: POLL_INTERVAL_MS });
  follower.start();
  try {
    return await pacedWrites(writer, next, async () => {
      const sequence = await writer.changes.head();
      while (follower.appliedSequence() < sequence) await sleep(1);
    });
  } finally {
    await follower.stop();
    await replica.close();
    await source.close();
  }
}

/** `catalog copy` of the embedded catalogue into a new, empty database, dropped afterwards. */
async function copySeconds(products: number, sourcePath: string): Promise<number> {
  const name = `catalog_bench_copy_${products}`;
  await recreateDatabase(name);
  try {
    const started = performance.now();
    await copySqliteToPostgres({ sourcePath, target: { url: databaseUrl(name) } });
    return (performance.now() - started) / 1000;
  } finally {
    await dropDatabase(name);
  }
}

async function databaseMegabytes(name: string): Promise<number> {
  return onDatabase(SERVER_URL, (client) =>
    client
      .query<{ bytes: string }>('SELECT pg_database_size($1) AS bytes', [name])
      .then((result) => Number(result.rows[0]?.bytes) / 1024 / 1024),
  );
}

const figures: Figure[] = [];
/** Sizes whose PostgreSQL catalogue was kept from an earlier run, so their import was not measured. */
const reused: number[] = [];
const loadAtStart = loadavg().map(round);

const side = (latencies: Side) => ({
  c1p50: percentile(latencies.c1, 50),
  c1p99: percentile(latencies.c1, 99),
  c8p50: percentile(latencies.c8, 50),
  c8p99: percentile(latencies.c8, 99),
});

type Deployment = Awaited<ReturnType<typeof openDeployment>>;

async function importFigures(
  products: number,
  name: string,
  group: string,
  shared: { seconds: number; reused: boolean },
): Promise<string[]> {
  const imported = await loadPostgresCatalogue(name, products);
  if (imported.reused) {
    reused.push(products);
    return [`- bulk import into PostgreSQL: ${name} kept from an earlier run was reused (not measured)`];
  }
  const sqliteSeconds = await sqliteSeedSeconds(products, shared);
  figures.push(
    figure(IMPORT, products / imported.seconds, 'products/s', { group, baseline: products / sqliteSeconds }),
    figure(`${IMPORT}, wall time`, imported.seconds, 's', { group, baseline: sqliteSeconds }),
  );
  return [
    `- bulk import into PostgreSQL: ${imported.seconds.toFixed(1)} s (${Math.round(products / imported.seconds)} products/s); SQLite seed of the same catalogue ${sqliteSeconds.toFixed(1)} s (${Math.round(products / sqliteSeconds)} products/s)`,
  ];
}

async function replicaFigures(products: number, name: string, group: string, deployment: Deployment) {
  figures.push(
    figure(REPLICA_BUILD, deployment.buildSeconds, 's', { group }),
    figure('replica initial build rate', products / deployment.buildSeconds, 'products/s', { group }),
    figure('search replica file', statSync(deployment.replicaPath).size / 1024 / 1024, 'MB', { group }),
    figure('PostgreSQL database', await databaseMegabytes(name), 'MB', { group }),
  );
  return [
    `- replica initial build: ${deployment.buildSeconds.toFixed(1)} s (${Math.round(products / deployment.buildSeconds)} products/s)`,
  ];
}

async function queryFigures(
  products: number,
  group: string,
  deployment: Deployment,
  sqlitePath: string,
): Promise<string[]> {
  const embedded = openSqliteCatalogStore({ databasePath: sqlitePath, searchTimeoutMs: 120_000 });
  try {
    const embeddedMix = await selectedMix(embedded, sqlitePath, products);
    const postgresMix = await selectedMix(deployment.store, deployment.replicaPath, products);
    await warm(embedded, embeddedMix);
    await warm(deployment.store, postgresMix);
    const rows = await compareQueries(embedded, embeddedMix, deployment.store, postgresMix);
    const queries = { group: `${group}: queries (ms), PostgreSQL deployment vs embedded` };
    const lines = [
      '| query | PG c1 p50 | emb c1 p50 | PG c1 p99 | emb c1 p99 | PG c8 p50 | emb c8 p50 | PG c8 p99 | emb c8 p99 | c1 p99 ratio |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ];
    for (const row of rows) {
      const pgq = side(row.postgres);
      const emb = side(row.embedded);
      for (const metric of ['c1p50', 'c1p99', 'c8p50', 'c8p99'] as const) {
        const name = `${metric.slice(0, 2)} ${metric.slice(2)}`;
        figures.push(
          figure(row.label, pgq[metric], 'ms', { ...queries, metric: name, baseline: emb[metric] }),
        );
      }
      figures.push(
        figure(row.label, row.postgres.c1.length + row.postgres.c8.length, 'runs', {
          ...queries,
          metric: 'runs',
        }),
      );
      lines.push(
        `| ${row.label} | ${fmt(pgq.c1p50)} | ${fmt(emb.c1p50)} | ${fmt(pgq.c1p99)} | ${fmt(emb.c1p99)} | ${fmt(pgq.c8p50)} | ${fmt(emb.c8p50)} | ${fmt(pgq.c8p99)} | ${fmt(emb.c8p99)} | ${(pgq.c1p99 / emb.c1p99).toFixed(2)}× |`,
      );
    }
    return lines;
  } finally {
    await embedded.close();
  }
}

/** Both lags; the deployment is closed between them, its replica then reopened without searches. */
async function lagFigures(products: number, url: string, group: string, deployment: Deployment) {
  const writer = await openPostgresRecordStore({ url, maxConnections: 1 });
  const next = lagProducts(products);
  let searched: { lags: number[]; misses: number };
  let background: number[];
  try {
    searched = await searchableLag(deployment.store, writer, next);
    await deployment.store.close();
    background = await backgroundLag(url, deployment.replicaPath, writer, next);
  } finally {
    await writer.close();
  }
  const lag = { group: `${group}: write-to-searchable lag (ms)` };
  const rows = [
    ['the next search by its productCode finds it (replica catch-up included)', searched.lags],
    [`a replica nothing searches has applied it (feed polled every ${POLL_INTERVAL_MS} ms)`, background],
  ] as const;
  for (const [name, lags] of rows) {
    figures.push(
      figure(name, percentile(lags, 50), 'ms', { ...lag, metric: 'p50' }),
      figure(name, percentile(lags, 99), 'ms', { ...lag, metric: 'p99' }),
      figure(name, Math.max(...lags), 'ms', { ...lag, metric: 'max' }),
      figure(name, lags.length, 'writes', { ...lag, metric: 'writes' }),
    );
  }
  figures.push(figure(rows[0][0], searched.misses, 'searches', { ...lag, metric: 'searches without it' }));
  return [
    ...rows.map(
      ([name, lags]) =>
        `- lag, ${name}: p50 ${fmt(percentile(lags, 50))} ms, p99 ${fmt(percentile(lags, 99))} ms, max ${fmt(Math.max(...lags))} ms`,
    ),
    `- searches by code that came back without the product just written: ${searched.misses}`,
  ];
}

async function copyFigures(products: number, group: string, sqlitePath: string): Promise<string[]> {
  const seconds = await copySeconds(products, sqlitePath);
  figures.push(
    figure('catalog copy of the embedded catalogue into an empty database', seconds, 's', { group }),
    figure('catalog copy rate', products / seconds, 'products/s', { group }),
  );
  return [
    `- catalog copy (copySqliteToPostgres): ${seconds.toFixed(1)} s (${Math.round(products / seconds)} products/s)`,
  ];
}

async function benchSize(products: number): Promise<void> {
  const group = `${products.toLocaleString('en')} products`;
  const name = `catalog_bench_${products}`;
  const url = databaseUrl(name);
  const sqliteDir = join(DATA_ROOT, String(products));
  const sqlitePath = catalogDatabasePath(sqliteDir);
  process.stderr.write(`\n== PostgreSQL deployment, ${products} products (${name}; embedded ${sqliteDir})\n`);
  const shared = await loadSqliteCatalogue(sqliteDir, products);
  const out = ['', `### ${group}`, '', ...(await importFigures(products, name, group, shared))];
  process.stderr.write('  replica initial build\n');
  const deployment = await openDeployment(url);
  let table: string[];
  try {
    out.push(...(await replicaFigures(products, name, group, deployment)));
    table = await queryFigures(products, group, deployment, sqlitePath);
    process.stderr.write('  write-to-searchable lag\n');
    out.push(...(await lagFigures(products, url, group, deployment)));
  } finally {
    // Already closed when the lags were measured; closing again is a no-op.
    await deployment.store.close();
    rmSync(deployment.dataDir, { recursive: true, force: true });
  }
  process.stderr.write('  catalog copy\n');
  out.push(...(await copyFigures(products, group, sqlitePath)));
  figures.push(
    figure('peak RSS of the bench process', process.resourceUsage().maxRSS / 1024, 'MB', { group }),
  );
  if (!KEEP_DATABASES) await dropDatabase(name);
  process.stdout.write(
    `${[...out, `- peak RSS: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`, '', ...table].join('\n')}\n`,
  );
}

for (const products of SIZES) await benchSize(products);

const server = new URL(SERVER_URL);
// Another engine's run is its own part of the report (scripts/performance-report.mjs).
const PART = SEARCH_ENGINE === undefined ? 'postgres' : `postgres-${SEARCH_ENGINE}`;
writeBenchResults(new URL(`../.bench/${PART}-results.json`, import.meta.url), {
  part: PART,
  title: 'PostgreSQL deployment beside the embedded default (packages/catalog-store)',
  command: `${SEARCH_ENGINE === undefined ? '' : `BENCH_SEARCH_ENGINE=${SEARCH_ENGINE} `}BENCH_PRODUCTS=${SIZES.join(',')} pnpm --filter @catalog/store run bench:postgres`,
  parameters: {
    products: SIZES.join(','),
    searchEngine: SEARCH_ENGINE ?? 'default',
    seed: SEED,
    server: `${server.hostname}:${server.port || '5432'}`,
    loadAverageAtStart: loadAtStart.join(' / '),
    iterationsC1: ITERATIONS,
    iterationsC8: ITERATIONS * 2,
    only: ONLY ?? 'all query types',
    lagWrites: LAG_WRITES,
    lagPaceMs: LAG_PACE_MS,
    replicaPollMs: POLL_INTERVAL_MS,
  },
  figures,
  notes: [
    "PostgreSQL deployment: openCatalogue on PostgreSQL, records in PostgreSQL, search answered by the instance's SQLite replica, which follows the change feed; every search first reads the feed head on PostgreSQL and waits for the replica to reach it. Embedded: openSqliteCatalogStore on the database search-bench searches (the same generated catalogue). Both with the default search workers.",
    "Bulk import: seedCatalogue into an empty PostgreSQL database (one transaction); baseline: the SQLite seed of the same catalogue in the same run (the embedded database's own seed when this run made it, else a seed into a throwaway directory).",
    "Replica initial build: opening the deployment with an empty replica directory, until the replica holds the whole catalogue (openCatalogue resolves then): a bulk load of one snapshot of the source (ChangeFeed.readSnapshot, adapters/sqlite/replica/load-snapshot.ts), then the feed after it. Unlike the embedded database after its seed, the replica's full-text index is not compacted. bench/replica-build-bench.ts times it beside the old replay of the whole feed.",
    "Queries: end to end through each deployment's productSearch.searchDocuments with the caller's view, as the API calls it; the value is the PostgreSQL deployment, the baseline the embedded one, measured interleaved per query type in the same run; ratio = PostgreSQL / embedded. A p99 of 40 runs (80 at c8; keyset pages 400 and 800) is close to their maximum.",
    `Lag: another record-store instance creates ${LAG_WRITES} products, one every ${LAG_PACE_MS} ms; timed from each write's resolution. Next search: searchDocuments by the new productCode on the deployment (its follower also polls every ${POLL_INTERVAL_MS} ms), repeated until it finds the product. Background: the same replica reopened with a FeedFollower and nothing searching, until its applied sequence reaches the feed head read after the write.`,
    'catalog copy: copySqliteToPostgres of the embedded database into a new, empty database (migration, COPY of every table, change feed, indexes, verification), dropped afterwards.',
    ...(reused.length === 0
      ? []
      : [
          `Bulk import not measured for ${reused.map((n) => n.toLocaleString('en')).join(', ')} products: the PostgreSQL catalogue kept from an earlier run (BENCH_DATA_DIR) was reused; it also holds the earlier runs' lag products (codes ${LAG_CODE_PREFIX}…).`,
        ]),
  ],
});
