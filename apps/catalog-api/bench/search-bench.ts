// `pnpm bench` (API part), over TLS on loopback, bounded in time, at BENCH_PRODUCTS (default 20,000;
// the goals of issue 14 are stated at 1,000,000). Every figure has a baseline from the same run:
// - a typical query (one common word, 20 hits) at c32 against the same Koa stack returning the same
//   body precomputed (bench/baseline-server.ts), and with metrics on against off;
// - query shapes: seeded random queries over the whole parameter space of spec 4.1
//   (bench/query-shapes.ts) at c1, p99 per shape class, and the slowest single query;
// - a Zipf-distributed mix of at least 1,000 distinct generated queries at c32 against the
//   precomputed-body baseline answering the same paths with the same bodies;
// - the authenticated path (GET /brands/{unknown id}: token, status check, log line, one lookup)
//   against /health on the same process;
// - the API's resident memory after all of it.
// Results also go to .bench/results.json for scripts/performance-report.mjs.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Figure, round, writeBenchResults } from '@catalog/bench-results';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { closedLoopLoad, type LoadRequest } from '@catalog/server-runtime/load';
import { rawRequest, requestAccessToken, spawnService } from '@catalog/server-runtime/testing';
import { seededRandom } from '@catalog/store';
import { prepareBenchCatalogue } from './bench-catalogue.ts';
import { processMemory } from './process-memory.ts';
import { distinctQueries, type GeneratedQuery, queryGenerator, readShapeVocabulary } from './query-shapes.ts';
import { zipfSampler } from './zipf.ts';

const CONCURRENCY = 32;
const WARMUP_MS = 2_000;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? '10') * 1000;
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? '20000');
const SHAPE_MS = Number(process.env.BENCH_SHAPE_SECONDS ?? '180') * 1000;
const MIX_QUERIES = Number(process.env.BENCH_MIX_QUERIES ?? '1000');
/** The API's SEARCH_ENGINE (unset: the records engine's default, sqlite-fts5). */
const SEARCH_ENGINE = process.env.BENCH_SEARCH_ENGINE || undefined;
const SHAPE_SEED = 14;
const MIX_SEED = 1414;
/** The Zipf exponent of the mix: the classic word-frequency shape. */
const ZIPF_S = 1;
/** The channel the shape and mix client is bound to (displayOnWeb answers for it). */
const BOUND_CHANNEL = 'main-site';
/** Shape classes listed in the report, slowest p99 first; the rest are counted. */
const LISTED_CLASSES = 30;
const SHAPE_GOAL_MS = 50;

const METRICS_GROUP = 'Metrics on (default) vs off';
const SHAPES_GROUP = 'Query shapes at c1: the slowest classes (ms)';
const SHAPES_SUMMARY = 'Query shapes at c1: summary';
const MIX_GROUP = 'Zipf mix of generated queries (c32)';
const AUTH_GROUP = 'Authenticated path vs /health (c32)';
const MEMORY_GROUP = 'API memory';
const START_GROUP = 'API start';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const log = (line: string) => process.stderr.write(`api bench: ${line}\n`);

type Load = Awaited<ReturnType<typeof closedLoopLoad>>;

const versus = (name: string, value: number, base: number, unit: string, group?: string): Figure => ({
  name,
  value,
  unit,
  baseline: base,
  ratio: Number((value / base).toFixed(3)),
  ...(group === undefined ? {} : { group }),
});

/** Two rounds of one configuration as one: requests over time, each percentile the rounds' mean. */
function pooled(a: Load, b: Load): Load {
  const mean = (x: number, y: number) => Number(((x + y) / 2).toFixed(1));
  return {
    ...a,
    seconds: a.seconds + b.seconds,
    requests: a.requests + b.requests,
    requestsPerSecond: Math.round((a.requests + b.requests) / (a.seconds + b.seconds)),
    latencyMs: {
      p50: mean(a.latencyMs.p50, b.latencyMs.p50),
      p95: mean(a.latencyMs.p95, b.latencyMs.p95),
      p99: mean(a.latencyMs.p99, b.latencyMs.p99),
    },
    unexpected: a.unexpected + b.unexpected,
  };
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

interface ShapeRun {
  classes: { name: string; runs: number; p50: number; p99: number; max: number; failed: number }[];
  queries: number;
  failed: number;
  slowest: { ms: number; status: number; params: Readonly<Record<string, string>> } | null;
}

/** Generated queries one after another for SHAPE_MS; every latency filed under each of its classes. */
async function measureShapes(
  baseUrl: string,
  ca: string,
  headers: Record<string, string>,
  next: () => GeneratedQuery,
) {
  const byClass = new Map<string, { latencies: number[]; failed: number }>();
  const sent = new Map<LoadRequest, GeneratedQuery>();
  let slowest: ShapeRun['slowest'] = null;
  let failed = 0;
  const load = await closedLoopLoad({
    baseUrl,
    ca,
    concurrency: 1,
    warmupMs: WARMUP_MS,
    measureMs: SHAPE_MS,
    request: () => {
      const query = next();
      const request = { path: query.path, headers };
      sent.set(request, query);
      return request;
    },
    onResponse: (request, status, ms) => {
      const query = sent.get(request) as GeneratedQuery;
      sent.delete(request);
      if (status !== 200) failed += 1;
      if (slowest === null || ms > slowest.ms) slowest = { ms, status, params: query.params };
      for (const name of query.classes) {
        let entry = byClass.get(name);
        if (entry === undefined) {
          entry = { latencies: [], failed: 0 };
          byClass.set(name, entry);
        }
        entry.latencies.push(ms);
        if (status !== 200) entry.failed += 1;
      }
    },
  });
  const classes = [...byClass].map(([name, { latencies, failed: classFailed }]) => {
    latencies.sort((a, b) => a - b);
    return {
      name,
      runs: latencies.length,
      p50: round(percentile(latencies, 0.5)),
      p99: round(percentile(latencies, 0.99)),
      max: round(latencies.at(-1) ?? Number.NaN),
      failed: classFailed,
    };
  });
  classes.sort((a, b) => b.p99 - a.p99);
  return { classes, queries: load.requests, failed, slowest } satisfies ShapeRun;
}

async function createClient(dataDir: string, channel: string | null) {
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir }, undefined), {
    searchWorkers: 1,
  });
  const secret = generateClientSecret();
  const clientId = `BENCH${randomBytes(11).toString('hex').slice(0, 21).toUpperCase()}`;
  try {
    await store.clients.create({
      clientId,
      clientName: 'bench',
      scopes: ['products.read', 'brands.read'],
      createdBy: { userId: 'bench', userName: 'bench' },
      expiresAt: null,
      channel,
      secretHash: hashClientSecret(secret, await loadClientSecretPepper({ dataDir })),
      tokenLifetimeSeconds: 86_400,
    });
  } finally {
    await store.close();
  }
  return { clientId, secret };
}

const catalogue = await prepareBenchCatalogue(PRODUCTS);
const { dataDir, databasePath } = catalogue;
log(
  catalogue.seedSeconds === null
    ? `reusing the catalogue of ${PRODUCTS} products in ${dataDir}`
    : `seeded ${PRODUCTS} products in ${catalogue.seedSeconds.toFixed(0)} s`,
);
const quiet = { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '0', DEMO_CATALOGUE_PRODUCTS: '0' };

// As `pnpm start` runs the API (package.json), for the API, the metrics-off API and the baseline alike.
const API_NODE_ARGS = ['--max-semi-space-size=8'];

const auth = await spawnService({
  entry: here('../../auth-server/src/main.ts'),
  env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' },
});
const started: { stop: () => Promise<unknown> }[] = [auth];
try {
  const apiEnv = {
    ...quiet,
    DATA_DIR: dataDir,
    CATALOG_API_PORT: '0',
    PUBLIC_AUTH_URL: auth.url,
    // As `pnpm start` runs it (apps/catalog-api/package.json).
    MALLOC_ARENA_MAX: '2',
    ...(SEARCH_ENGINE === undefined ? {} : { SEARCH_ENGINE }),
  };
  // From the process's start to its "listening" line: the search engine is ready then (an in-memory
  // index built from the records, for the bitmap engine).
  const spawnedAt = performance.now();
  const api = await spawnService({
    entry: here('../src/main.ts'),
    env: apiEnv,
    nodeArgs: API_NODE_ARGS,
    timeoutMs: 600_000,
  });
  const startSeconds = (performance.now() - spawnedAt) / 1000;
  started.push(api);
  const ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
  const tokenFor = async (channel: string | null) => {
    const { clientId, secret } = await createClient(dataDir, channel);
    const { token } = await requestAccessToken({
      authUrl: auth.url,
      ca,
      clientId,
      clientSecret: secret,
      scopes: ['products.read', 'brands.read'],
    });
    return { Authorization: `Bearer ${token}` };
  };
  const headers = await tokenFor(null);
  const boundHeaders = await tokenFor(BOUND_CHANNEL);

  // A typical integrator query: the most common word of the first names, 20 hits.
  const probe = await rawRequest(`${api.url}/products/search?size=50`, { ca, headers });
  const names = (JSON.parse(probe.body) as { data: { name: string }[] }).data.map((p) => p.name);
  const words = names.flatMap((name) => name.toLowerCase().split(/\s+/)).filter((w) => /^[a-z]{4,}$/.test(w));
  const frequency = (w: string) => words.filter((other) => other === w).length;
  const word = words.sort((a, b) => frequency(b) - frequency(a))[0] ?? 'drill';
  const path = `/products/search?q=${encodeURIComponent(word)}&size=20`;
  const sample = await rawRequest(`${api.url}${path}`, { ca, headers });
  const hits = (JSON.parse(sample.body) as { data: unknown[] }).data.length;

  const vocabulary = readShapeVocabulary(databasePath);
  // The mix's distinct queries, each asked once of the API for the body the baseline will return.
  const mixQueries = distinctQueries(queryGenerator(vocabulary, MIX_SEED), MIX_QUERIES);
  const bodies: Record<string, string> = { [path]: sample.body };
  const mixStatuses: Record<number, number> = {};
  for (const query of mixQueries) {
    const reply = await rawRequest(`${api.url}${query.path}`, { ca, headers: boundHeaders });
    mixStatuses[reply.status] = (mixStatuses[reply.status] ?? 0) + 1;
    if (reply.status !== 200 && mixStatuses[reply.status] === 1)
      log(`${reply.status} for ${query.path}: ${reply.body}`);
    bodies[query.path] = reply.body;
  }
  log(`mix of ${mixQueries.length} distinct queries fetched once: statuses ${JSON.stringify(mixStatuses)}`);
  const bodiesFile = join(dataDir, 'baseline-bodies.json');
  await writeFile(bodiesFile, JSON.stringify(bodies));
  const baseline = await spawnService({
    entry: here('./baseline-server.ts'),
    env: { ...apiEnv, BASELINE_BODIES_FILE: bodiesFile },
    nodeArgs: API_NODE_ARGS,
  });
  started.push(baseline);
  // The same API without metrics, on the same database.
  const withoutMetrics = await spawnService({
    entry: here('../src/main.ts'),
    env: { ...apiEnv, METRICS_ENABLED: 'false' },
    nodeArgs: API_NODE_ARGS,
    timeoutMs: 600_000,
  });
  started.push(withoutMetrics);

  const load = (baseUrl: string, request: LoadRequest | (() => LoadRequest), expectStatus = 200) =>
    closedLoopLoad({
      baseUrl,
      ca,
      concurrency: CONCURRENCY,
      warmupMs: WARMUP_MS,
      measureMs: MEASURE_MS,
      request,
      expectStatus,
    });

  log('typical query: baseline, metrics off, on, on, off');
  const typical = { path, headers };
  const baselineResult = await load(baseline.url, typical);
  // Metrics off and on in the order off, on, on, off: a machine whose load drifts steadily during
  // the run biases neither.
  const offFirst = await load(withoutMetrics.url, typical);
  const searchResult = await load(api.url, typical);
  const onSecond = await load(api.url, typical);
  const offSecond = await load(withoutMetrics.url, typical);
  const metricsOff = pooled(offFirst, offSecond);
  const metricsOn = pooled(searchResult, onSecond);

  log('authenticated path against /health: health, authenticated, authenticated, health');
  const unknownBrand = { path: `/brands/${'0'.repeat(26)}`, headers };
  const healthFirst = await load(api.url, { path: '/health' });
  const authFirst = await load(api.url, unknownBrand, 404);
  const authSecond = await load(api.url, unknownBrand, 404);
  const healthSecond = await load(api.url, { path: '/health' });
  const health = pooled(healthFirst, healthSecond);
  const authenticated = pooled(authFirst, authSecond);

  log(`query shapes at c1 for ${SHAPE_MS / 1000} s`);
  const shapes = await measureShapes(api.url, ca, boundHeaders, queryGenerator(vocabulary, SHAPE_SEED));

  log('Zipf mix: baseline, API, API, baseline');
  const mixRequest = () => {
    const pickRank = zipfSampler(mixQueries.length, ZIPF_S, seededRandom(MIX_SEED + 1));
    return () => ({ path: (mixQueries[pickRank()] as GeneratedQuery).path, headers: boundHeaders });
  };
  const mixBaseFirst = await load(baseline.url, mixRequest());
  // The API's resident memory sampled while it serves the mix.
  let mixPeakRssBytes = 0;
  const sampler = setInterval(() => {
    processMemory(api.child.pid as number).then(
      (sample) => {
        mixPeakRssBytes = Math.max(mixPeakRssBytes, sample.rssBytes);
      },
      () => {},
    );
  }, 250);
  const mixFirst = await load(api.url, mixRequest());
  const mixSecond = await load(api.url, mixRequest());
  clearInterval(sampler);
  const memory = await processMemory(api.child.pid as number);
  const mixBaseSecond = await load(baseline.url, mixRequest());
  const mixBaseline = pooled(mixBaseFirst, mixBaseSecond);
  const mix = pooled(mixFirst, mixSecond);

  const over = shapes.classes.filter((c) => c.p99 > SHAPE_GOAL_MS);
  const slowest = shapes.slowest as ShapeRun['slowest'];
  const mib = (bytes: number) => round(bytes / 2 ** 20);
  const figures: Figure[] = [
    versus('throughput', searchResult.requestsPerSecond, baselineResult.requestsPerSecond, 'requests/s'),
    versus('latency p50', searchResult.latencyMs.p50, baselineResult.latencyMs.p50, 'ms'),
    versus('latency p95', searchResult.latencyMs.p95, baselineResult.latencyMs.p95, 'ms'),
    versus('latency p99', searchResult.latencyMs.p99, baselineResult.latencyMs.p99, 'ms'),
    versus('unexpected statuses', searchResult.unexpected, baselineResult.unexpected, 'responses'),
    versus(
      'throughput',
      metricsOn.requestsPerSecond,
      metricsOff.requestsPerSecond,
      'requests/s',
      METRICS_GROUP,
    ),
    versus('latency p50', metricsOn.latencyMs.p50, metricsOff.latencyMs.p50, 'ms', METRICS_GROUP),
    versus('latency p99', metricsOn.latencyMs.p99, metricsOff.latencyMs.p99, 'ms', METRICS_GROUP),
    { name: 'queries run', value: shapes.queries, unit: 'queries', group: SHAPES_SUMMARY },
    { name: 'shape classes', value: shapes.classes.length, unit: 'classes', group: SHAPES_SUMMARY },
    {
      name: 'fewest runs in a class',
      value: Math.min(...shapes.classes.map((c) => c.runs)),
      unit: 'queries',
      group: SHAPES_SUMMARY,
    },
    {
      name: `classes with p99 over ${SHAPE_GOAL_MS} ms`,
      value: over.length,
      unit: 'classes',
      group: SHAPES_SUMMARY,
    },
    {
      name: 'slowest class p99',
      value: shapes.classes[0]?.p99 ?? Number.NaN,
      unit: 'ms',
      group: SHAPES_SUMMARY,
    },
    {
      name: 'slowest single query',
      value: round(slowest?.ms ?? Number.NaN),
      unit: 'ms',
      group: SHAPES_SUMMARY,
    },
    { name: 'responses other than 200', value: shapes.failed, unit: 'responses', group: SHAPES_SUMMARY },
    ...shapes.classes.slice(0, LISTED_CLASSES).flatMap((c) =>
      (['p50', 'p99', 'max', 'runs'] as const).map((metric) => ({
        name: c.name,
        value: c[metric],
        unit: metric === 'runs' ? 'queries' : 'ms',
        group: SHAPES_GROUP,
        metric,
      })),
    ),
    versus('throughput', mix.requestsPerSecond, mixBaseline.requestsPerSecond, 'requests/s', MIX_GROUP),
    versus('latency p50', mix.latencyMs.p50, mixBaseline.latencyMs.p50, 'ms', MIX_GROUP),
    versus('latency p99', mix.latencyMs.p99, mixBaseline.latencyMs.p99, 'ms', MIX_GROUP),
    versus('unexpected statuses', mix.unexpected, mixBaseline.unexpected, 'responses', MIX_GROUP),
    versus(
      'throughput of GET /brands/{unknown id} (404)',
      authenticated.requestsPerSecond,
      health.requestsPerSecond,
      'requests/s',
      AUTH_GROUP,
    ),
    versus('latency p50', authenticated.latencyMs.p50, health.latencyMs.p50, 'ms', AUTH_GROUP),
    { name: 'peak RSS while serving the mix', value: mib(mixPeakRssBytes), unit: 'MB', group: MEMORY_GROUP },
    { name: 'RSS after the mix', value: mib(memory.rssBytes), unit: 'MB', group: MEMORY_GROUP },
    {
      name: 'of which anonymous (heaps, page caches)',
      value: mib(memory.anonymousBytes),
      unit: 'MB',
      group: MEMORY_GROUP,
    },
    {
      name: 'of which file-backed (mapped database)',
      value: mib(memory.fileBytes),
      unit: 'MB',
      group: MEMORY_GROUP,
    },
    { name: 'peak RSS over the whole run', value: mib(memory.peakRssBytes), unit: 'MB', group: MEMORY_GROUP },
    {
      name: 'peak RSS while serving the mix, per product',
      value: Math.round(mixPeakRssBytes / PRODUCTS),
      unit: 'bytes',
      group: MEMORY_GROUP,
    },
    { name: 'API ready after a start', value: round(startSeconds), unit: 's', group: START_GROUP },
  ];
  const results = {
    part: SEARCH_ENGINE === undefined ? 'api' : `api-${SEARCH_ENGINE}`,
    title: 'Catalog API: GET /products/search over TLS (apps/catalog-api)',
    command: `${SEARCH_ENGINE === undefined ? '' : `BENCH_SEARCH_ENGINE=${SEARCH_ENGINE} `}BENCH_PRODUCTS=${PRODUCTS} BENCH_SECONDS=${MEASURE_MS / 1000} BENCH_SHAPE_SECONDS=${SHAPE_MS / 1000} pnpm --filter @catalog/catalog-api run bench:one`,
    parameters: {
      products: PRODUCTS,
      searchEngine: SEARCH_ENGINE ?? 'default',
      query: path,
      hits,
      bodyBytes: Buffer.byteLength(sample.body),
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP_MS / 1000,
      measuredSeconds: searchResult.seconds,
      shapeSeconds: SHAPE_MS / 1000,
      shapeSeed: SHAPE_SEED,
      mixQueries: mixQueries.length,
      mixSeed: MIX_SEED,
      zipfExponent: ZIPF_S,
      seedSeconds: catalogue.seedSeconds === null ? 'reused' : Math.round(catalogue.seedSeconds),
    },
    figures,
    slowestQuery: slowest,
    shapeClasses: shapes.classes,
    termProducts: vocabulary.termProducts,
    notes: [
      `${START_GROUP}: from the API process's spawn to its "listening" log line, on the catalogue above, with the search engine the run names (the bitmap engine builds its in-memory index from the records before it listens; sqlite-fts5 opens the database's index as it is).`,
      `${METRICS_GROUP}: the same search against a second API process on the same database with METRICS_ENABLED=false (no request metrics, no process metrics, no metrics listener); off and on alternate in the same run (off, on, on, off), throughput pooled over both rounds, latencies the mean of the two rounds' percentiles.`,
      'Baseline of the typical query and of the mix: the same Koa stack (request context, error body, rate-limit middleware with the limits off, JSON body parsing, token verification) answering the same paths with the bodies the API gave for them, precomputed, in the same run. The ratio isolates what the store, the search engine and the projection cost.',
      `Query shapes: queries drawn by a seeded generator (apps/catalog-api/bench/query-shapes.ts, seed ${SHAPE_SEED}) over spec 4.1's parameters — q of no text, a common term, a rare term, a 1-, 2- or 3-character prefix, a product or ERP code, 2–3 words of one name; no sort or each of the 10 sort columns, in either order or the default; brandName, displayOnWeb (the client is bound to ${BOUND_CHANNEL}), includeArchived, updatedAfter (1970 or a recent instant), from up to ${9_900}, size 20 or 100, includeAggregations — sent one at a time (c1) for ${SHAPE_MS / 1000} s through TLS, token and worker pool. Each query counts in its class "text kind × order" and in "text kind × modifier" and "order × modifier" for each modifier it carries. p99 is nearest-rank; ${LISTED_CLASSES} slowest classes listed, every class in .bench/results.json.`,
      `Slowest single query: ${slowest === null ? 'none' : `${slowest.ms.toFixed(1)} ms (status ${slowest.status}), ${new URLSearchParams(slowest.params as Record<string, string>).toString()}`}.`,
      `Common and rare terms (products containing them): ${Object.entries(vocabulary.termProducts)
        .map(([term, n]) => `${term} ${n.toLocaleString('en')}`)
        .join(', ')}.`,
      `${MIX_GROUP}: ${mixQueries.length} distinct queries of the same generator (seed ${MIX_SEED}), drawn with Zipf weights 1/rank^${ZIPF_S} by ${CONCURRENCY} callers; baseline and API alternate (baseline, API, API, baseline).`,
      `${AUTH_GROUP}: GET /brands/{unknown id} with a valid token (token verification, client status check, request log line, one store lookup, 404 body) against GET /health (no token) on the same API process, alternating (health, token, token, health); the ratio is the authenticated rate over the health rate, so the authenticated path costs 1/ratio times a /health request.`,
      `${MEMORY_GROUP}: VmRSS of the API process (its search workers are threads of it) from /proc, sampled every 250 ms while it serves the mix (the goal's figure) and read after it, with its anonymous and file-backed parts; VmHWM is the peak over the whole run (catalogue vocabulary, the mix's first fetch of each query and the shape run included). The API runs with MALLOC_ARENA_MAX=2 and --max-semi-space-size=8, as \`pnpm start\` runs it (its search workers' young generation is held to 12 MB by the store). The metrics-off API and the baseline are separate processes.`,
    ],
  };
  process.stdout.write(`${JSON.stringify({ ...results, shapeClasses: undefined })}\n`);
  // Another engine's run is its own part of the report (scripts/performance-report.mjs).
  writeBenchResults(
    new URL(
      `../.bench/${SEARCH_ENGINE === undefined ? 'results' : `results-${SEARCH_ENGINE}`}.json`,
      import.meta.url,
    ),
    results,
  );
} finally {
  await Promise.all(started.map((service) => service.stop()));
  catalogue.release();
}
