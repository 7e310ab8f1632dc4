// `pnpm bench` (API part): throughput and p99 of GET /products/search (a typical query, 20 hits) at
// concurrency 32 over TLS, against a baseline measured in the same run: the same Koa stack returning a
// precomputed body of the same size (bench/baseline-server.ts); and the cost of the Prometheus metrics:
// the same search against a second API process with METRICS_ENABLED=false. Loopback only, bounded in time.
// Results also go to .bench/results.json for scripts/performance-report.mjs.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { closedLoopLoad } from '@catalog/server-runtime/load';
import { rawRequest, requestAccessToken, spawnService } from '@catalog/server-runtime/testing';
import { catalogDatabasePath, openSqliteCatalogStore } from '@catalog/store';

const CONCURRENCY = 32;
const WARMUP_MS = 2_000;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? '10') * 1000;
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? '20000');

/** The figures comparing metrics on (the measured API, as deployed) with metrics off. */
const METRICS_GROUP = 'Metrics on (default) vs off';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

type Load = Awaited<ReturnType<typeof closedLoopLoad>>;

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

/** The shape read by scripts/performance-report.mjs. */
async function writeResults(run: {
  path: string;
  hits: number;
  bodyBytes: number;
  search: Load;
  baseline: Load;
  metricsOff: Load;
  metricsOn: Load;
}) {
  const { search, baseline, metricsOff, metricsOn } = run;
  const versus = (name: string, value: number, base: number, unit: string) => ({
    name,
    value,
    unit,
    baseline: base,
    ratio: Number((value / base).toFixed(3)),
  });
  const results = {
    part: 'api',
    title: 'Catalog API: GET /products/search over TLS (apps/catalog-api)',
    command: `BENCH_PRODUCTS=${PRODUCTS} BENCH_SECONDS=${MEASURE_MS / 1000} pnpm --filter @catalog/catalog-api run bench`,
    finishedAt: new Date().toISOString(),
    loadAverage: loadavg().map((n) => Number(n.toFixed(2))),
    parameters: {
      products: PRODUCTS,
      query: run.path,
      hits: run.hits,
      bodyBytes: run.bodyBytes,
      concurrency: CONCURRENCY,
      warmupSeconds: WARMUP_MS / 1000,
      measuredSeconds: search.seconds,
    },
    figures: [
      versus('throughput', search.requestsPerSecond, baseline.requestsPerSecond, 'requests/s'),
      versus('latency p50', search.latencyMs.p50, baseline.latencyMs.p50, 'ms'),
      versus('latency p95', search.latencyMs.p95, baseline.latencyMs.p95, 'ms'),
      versus('latency p99', search.latencyMs.p99, baseline.latencyMs.p99, 'ms'),
      versus('unexpected statuses', search.unexpected, baseline.unexpected, 'responses'),
      ...[
        versus('throughput', metricsOn.requestsPerSecond, metricsOff.requestsPerSecond, 'requests/s'),
        versus('latency p50', metricsOn.latencyMs.p50, metricsOff.latencyMs.p50, 'ms'),
        versus('latency p99', metricsOn.latencyMs.p99, metricsOff.latencyMs.p99, 'ms'),
      ].map((figure) => ({ ...figure, group: METRICS_GROUP })),
    ],
    notes: [
      `${METRICS_GROUP}: the same search against a second API process on the same database with METRICS_ENABLED=false (no request metrics, no process metrics, no metrics listener); off and on alternate in the same run (off, on, on, off), throughput pooled over both rounds, latencies the mean of the two rounds' percentiles.`,
      'Baseline: the same Koa stack (request context, error body, rate-limit middleware with the limits off, JSON body parsing, token verification) answering the same path with a precomputed body of the same size, measured just before, in the same run. The ratio isolates what the store, the search engine and the projection cost.',
    ],
  };
  const dir = here('../.bench/');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
}
const dataDir = await mkdtemp(join(tmpdir(), 'api-bench-'));
const quiet = { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '0' };

const auth = await spawnService({
  entry: here('../../auth-server/src/main.ts'),
  env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' },
});
const started: { stop: () => Promise<unknown> }[] = [auth];
try {
  const api = await spawnService({
    entry: here('../src/main.ts'),
    env: {
      ...quiet,
      DATA_DIR: dataDir,
      CATALOG_API_PORT: '0',
      PUBLIC_AUTH_URL: auth.url,
      DEMO_CATALOGUE_PRODUCTS: String(PRODUCTS),
    },
    timeoutMs: 600_000,
  });
  started.push(api);
  const ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');

  const store = openSqliteCatalogStore({ databasePath: catalogDatabasePath(dataDir), searchWorkers: 1 });
  const secret = generateClientSecret();
  const clientId = 'BENCHAPI000000000000000001';
  await store.clients.create({
    clientId,
    clientName: 'bench',
    scopes: ['products.read'],
    createdBy: { userId: 'bench', userName: 'bench' },
    expiresAt: null,
    secretHash: hashClientSecret(secret, await loadClientSecretPepper({ dataDir })),
    tokenLifetimeSeconds: 86_400,
  });
  await store.close();
  const { token } = await requestAccessToken({
    authUrl: auth.url,
    ca,
    clientId,
    clientSecret: secret,
    scopes: ['products.read'],
  });
  const headers = { Authorization: `Bearer ${token}` };

  // A typical integrator query: one common word from the catalogue's own names, 20 hits.
  const probe = await rawRequest(`${api.url}/products/search?size=50`, { ca, headers });
  const names = (JSON.parse(probe.body) as { data: { name: string }[] }).data.map((p) => p.name);
  const words = names.flatMap((name) => name.toLowerCase().split(/\s+/)).filter((w) => /^[a-z]{4,}$/.test(w));
  const word =
    words.sort((a, b) => words.filter((w) => w === b).length - words.filter((w) => w === a).length)[0] ??
    'drill';
  const path = `/products/search?q=${encodeURIComponent(word)}&size=20`;
  const sample = await rawRequest(`${api.url}${path}`, { ca, headers });
  const hits = (JSON.parse(sample.body) as { data: unknown[] }).data.length;

  const bodyFile = join(dataDir, 'baseline-body.json');
  await writeFile(bodyFile, sample.body);
  const baseline = await spawnService({
    entry: here('./baseline-server.ts'),
    env: {
      ...quiet,
      DATA_DIR: dataDir,
      CATALOG_API_PORT: '0',
      PUBLIC_AUTH_URL: auth.url,
      BASELINE_BODY_FILE: bodyFile,
    },
  });
  started.push(baseline);
  // The same API without metrics, on the same database (already seeded: it starts at once).
  const withoutMetrics = await spawnService({
    entry: here('../src/main.ts'),
    env: {
      ...quiet,
      DATA_DIR: dataDir,
      CATALOG_API_PORT: '0',
      PUBLIC_AUTH_URL: auth.url,
      DEMO_CATALOGUE_PRODUCTS: String(PRODUCTS),
      METRICS_ENABLED: 'false',
    },
    timeoutMs: 600_000,
  });
  started.push(withoutMetrics);

  const load = (baseUrl: string) =>
    closedLoopLoad({
      baseUrl,
      ca,
      concurrency: CONCURRENCY,
      warmupMs: WARMUP_MS,
      measureMs: MEASURE_MS,
      request: { path, headers },
    });
  const baselineResult = await load(baseline.url);
  // Metrics off and on in the order off, on, on, off: a machine whose load drifts steadily during
  // the run biases neither.
  const offFirst = await load(withoutMetrics.url);
  const searchResult = await load(api.url);
  const onSecond = await load(api.url);
  const offSecond = await load(withoutMetrics.url);
  const metricsOffResult = pooled(offFirst, offSecond);
  const metricsOnResult = pooled(searchResult, onSecond);

  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'catalog-api GET /products/search over TLS',
      products: PRODUCTS,
      query: path,
      hits,
      bodyBytes: Buffer.byteLength(sample.body),
      concurrency: CONCURRENCY,
      baseline: baselineResult,
      search: searchResult,
      throughputRatio: Number((searchResult.requestsPerSecond / baselineResult.requestsPerSecond).toFixed(2)),
      p99Ratio: Number((searchResult.latencyMs.p99 / baselineResult.latencyMs.p99).toFixed(2)),
      metricsOff: metricsOffResult,
      metricsOn: metricsOnResult,
      metricsOnOffThroughputRatio: Number(
        (metricsOnResult.requestsPerSecond / metricsOffResult.requestsPerSecond).toFixed(3),
      ),
    })}\n`,
  );
  await writeResults({
    path,
    hits,
    bodyBytes: Buffer.byteLength(sample.body),
    search: searchResult,
    baseline: baselineResult,
    metricsOff: metricsOffResult,
    metricsOn: metricsOnResult,
  });
} finally {
  await Promise.all(started.map((service) => service.stop()));
  await rm(dataDir, { recursive: true, force: true });
}
