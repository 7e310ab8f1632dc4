// `pnpm bench` (auth part): client-credentials tokens issued per second at concurrency 16 against the
// real token server (its own process, HTTPS with the local CA, SQLite store), over keep-alive
// connections. Bounded: a warm-up, then a fixed measuring window; loopback only. No same-run baseline:
// the figures are absolute. Results also go to .bench/results.json for scripts/performance-report.mjs.
import { spawn } from 'node:child_process';
import { once as onceEvent } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchResults } from '@catalog/bench-results';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { closedLoopLoad } from '@catalog/server-runtime/load';

const CONCURRENCY = 16;
const WARMUP_MS = 2_000;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? '10') * 1000;

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const dataDir = await mkdtemp(join(tmpdir(), 'auth-bench-'));

/**
 * The real entry point in its own process, so the load generator does not share its event loop.
 * The token rate limits are off: the benchmark is one client on one address asking for far more
 * tokens than any integrator should, on purpose.
 */
async function startServer() {
  const child = spawn(process.execPath, ['--conditions=source', entry], {
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      AUTH_SERVER_PORT: '0',
      LOG_LEVEL: 'info',
      TOKEN_RATE_LIMIT_IP_PER_MIN: '0',
      TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.includes('"msg":"listening"'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`token server exited with ${code}:\n${output}`)));
  });
  child.stdout.removeAllListeners('data');
  child.stdout.resume();
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await onceEvent(child, 'exit');
    },
  };
}

/** The shape read by scripts/performance-report.mjs. */
function writeResults(load: Awaited<ReturnType<typeof closedLoopLoad>>) {
  writeBenchResults(new URL('../.bench/results.json', import.meta.url), {
    part: 'auth',
    title: 'Token server: client_credentials tokens (apps/auth-server)',
    command: `BENCH_SECONDS=${MEASURE_MS / 1000} pnpm --filter @catalog/auth-server run bench`,
    parameters: { concurrency: CONCURRENCY, warmupSeconds: WARMUP_MS / 1000, measuredSeconds: load.seconds },
    figures: [
      { name: 'tokens issued', value: load.requestsPerSecond, unit: 'tokens/s' },
      { name: 'latency p50', value: load.latencyMs.p50, unit: 'ms' },
      { name: 'latency p95', value: load.latencyMs.p95, unit: 'ms' },
      { name: 'latency p99', value: load.latencyMs.p99, unit: 'ms' },
      { name: 'tokens in the window', value: load.requests, unit: 'tokens' },
      { name: 'failed requests', value: load.unexpected, unit: 'requests' },
    ],
    notes: [
      'No same-run baseline: absolute figures. The token server (its own process, HTTPS, SQLite store, info logging) and the load generator share the machine.',
    ],
  });
}

const server = await startServer();

try {
  const ca = await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8');
  const pepper = await loadClientSecretPepper({ dataDir });
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined));
  const clientId = 'BENCH000000000000000000001';
  const clientSecret = generateClientSecret();
  await store.clients.create({
    clientId: clientId,
    clientName: 'bench',
    scopes: ['products.read', 'brands.read'],
    createdBy: { userId: 'bench', userName: 'bench' },
    expiresAt: null,
    secretHash: hashClientSecret(clientSecret, pepper),
    tokenLifetimeSeconds: 3600,
  });
  await store.close();

  const load = await closedLoopLoad({
    baseUrl: server.url,
    ca,
    concurrency: CONCURRENCY,
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
    request: {
      method: 'POST',
      path: '/oauth2/token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'crm-api/products.read',
      }).toString(),
    },
  });
  const result = {
    benchmark: 'auth-server client_credentials token issuance',
    concurrency: CONCURRENCY,
    seconds: load.seconds,
    tokens: load.requests,
    tokensPerSecond: load.requestsPerSecond,
    latencyMs: load.latencyMs,
    failed: load.unexpected,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  writeResults(load);
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
