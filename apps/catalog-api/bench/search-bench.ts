// `pnpm bench` (API part): throughput and p99 of GET /products/search (a typical query, 20 hits) at
// concurrency 32 over TLS, against a baseline measured in the same run: the same Koa stack returning a
// precomputed body of the same size (bench/baseline-server.ts). Loopback only, bounded in time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
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
  const searchResult = await load(api.url);

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
    })}\n`,
  );
} finally {
  await Promise.all(started.map((service) => service.stop()));
  await rm(dataDir, { recursive: true, force: true });
}
