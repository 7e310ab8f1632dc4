// `pnpm bench` part "cluster": what the Redis limiters cost through nginx (issue 16). Two pairs of
// catalog API instances on one PostgreSQL database, each pair behind an nginx of its own terminating
// TLS, beside one token server: one pair counts the gateway throttle and the per-IP window in Redis
// (REDIS_URL), the other in each process. The limits are set far above the load, so every request is
// admitted and only the cost of counting it differs. Rounds alternate between the pairs (Redis,
// in-process, Redis, in-process…) so that drift in the machine's load falls on both alike, and each
// pair's figure is the median of its rounds. The ratio is Redis over in-process: 1 = free.
//
// Two requests: a typical search (one common word, 20 hits) and GET /brands/{unknown id}, the
// cheapest authenticated route (the token check, the client's status, a 404): the Redis round trip
// is the same for both, so the second bounds its share of any request from above.
//
// Then the throttle itself at spec 8's limits (the defaults: 50 requests/second, 100 burst), on a
// third pair counting in Redis: twice the rate offered from 20 addresses for BENCH_SECONDS, and the
// requests accepted per one-second window as the callers saw them. A rate is the machine's to give,
// so it is measured here; the tests count what the limiter admits (its contract, on an injected clock).
//
//   BENCH_SECONDS        measured seconds per round (default 10); BENCH_ROUNDS rounds per pair (5)
//   BENCH_CONCURRENCY    callers (default 32)
//   BENCH_CLUSTER_PRODUCTS  the demo catalogue the first instance loads (default 20,000)
//   TEST_DATABASE_URL / TEST_REDIS_URL  the servers (defaults: the machine's), NGINX_PATH
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRecords } from '@catalog/engines';
import {
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  loadClientSecretPepper,
  localCaFiles,
} from '@catalog/server-runtime';
import { closedLoopLoad, type LoadRequest, type LoadResult } from '@catalog/server-runtime/load';
import { rawRequest, requestAccessToken } from '@catalog/server-runtime/testing';
import { DEFAULT_TEST_REDIS_URL } from '@catalog/vitest-config/redis-run-prefix';
import { authServerEnv, type ClusterShared, catalogApiEnv } from '../../../scripts/cluster/instance-env.mts';
import { type InstanceProcess, startInstance } from '../../../scripts/cluster/instance-process.mts';
import { writeNginxConfig } from '../../../scripts/cluster/nginx-config.mts';
import { findNginx, type NginxProcess, startNginx } from '../../../scripts/cluster/nginx-process.mts';
import { reservePort } from '../cluster/support/ports.ts';
import { pacedLoad, SourceAddresses, throttleWindows, timedGet } from '../support/load-callers.ts';
import { createPostgresDatabase } from '../support/postgres-database.ts';

const env = process.env;
const wholeNumber = (name: string, fallback: number): number => {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return parsed;
};
const SECONDS = wholeNumber('BENCH_SECONDS', 10);
const ROUNDS = wholeNumber('BENCH_ROUNDS', 5);
const CONCURRENCY = wholeNumber('BENCH_CONCURRENCY', 32);
const PRODUCTS = wholeNumber('BENCH_CLUSTER_PRODUCTS', 20_000);
const REDIS_URL = env.TEST_REDIS_URL || DEFAULT_TEST_REDIS_URL;
/** Far above anything this load reaches: every request is admitted, and counted. */
const UNBINDING_LIMITS = {
  RATE_LIMIT_RPS: '1000000',
  RATE_LIMIT_BURST: '1000000',
  RATE_LIMIT_IP_PER_5MIN: '100000000',
};
/** Redis's round trip may cost at most this share of throughput (issue 16). */
const MAX_COST = 0.1;
/** Spec 8's sustained rate, which the third pair runs with (RATE_LIMIT_* unset: the defaults). */
const SPEC_RPS = 50;

const root = fileURLToPath(new URL('../../../', import.meta.url));
const entry = {
  api: join(root, 'apps/catalog-api/dist/main.js'),
  auth: join(root, 'apps/auth-server/dist/main.js'),
};
const log = (line: string) => process.stderr.write(`[cluster bench] ${line}\n`);

// The instances' lines are read and dropped but for warnings and errors: a request line each, kept
// in this process (which also drives the load), would slow it down a little more every round.
const problems: string[] = [];
const keepErrors = (line: string) => {
  if (/"level":(40|50|60)/.test(line)) problems.push(line);
};

async function stopInstance(instance: InstanceProcess): Promise<void> {
  instance.child.kill('SIGTERM');
  await instance.exited;
}

type Limiters = 'redis' | 'in-process';

interface Pair {
  readonly limiters: Limiters;
  readonly name: string;
  readonly baseUrl: string;
  readonly instances: InstanceProcess[];
  readonly nginx: NginxProcess;
}

async function startPair(input: {
  readonly limiters: Limiters;
  /** Names its directories; the limiters' kind unless two pairs share it. */
  readonly name?: string;
  /** RATE_LIMIT_* of its instances (none: the defaults). */
  readonly limits?: Record<string, string>;
  readonly dir: string;
  readonly shared: ClusterShared;
  readonly tls: ReturnType<typeof localCaFiles>;
  readonly nginx: string;
  readonly authPort: number;
  readonly nginxAuthPort: number;
  readonly nginxApiPort: number;
}): Promise<Pair> {
  const instances: InstanceProcess[] = [];
  const name = input.name ?? input.limiters;
  const ports = [await reservePort(), await reservePort()];
  for (const [index, port] of ports.entries()) {
    const place = { dataDir: join(input.dir, `${name}-api-${index + 1}`), port };
    const instanceEnv: Record<string, string> = {
      ...catalogApiEnv(input.shared, place),
      ...(input.limits ?? UNBINDING_LIMITS),
      DEMO_CATALOGUE_PRODUCTS: String(PRODUCTS),
    };
    if (input.limiters === 'in-process') {
      delete instanceEnv.REDIS_URL;
      delete instanceEnv.REDIS_KEY_PREFIX;
    }
    // One at a time: the first start on the empty database loads the demo catalogue.
    instances.push(
      await startInstance({
        name: `${name}-api-${index + 1}`,
        entry: entry.api,
        env: instanceEnv,
        write: keepErrors,
        timeoutMs: 600_000,
      }),
    );
  }
  const runDir = join(input.dir, `nginx-${name}`);
  const site = (listen: number, upstreams: number[], serverName: string) => ({
    listen: `127.0.0.1:${listen}`,
    serverName,
    certificate: input.tls.serverCert,
    certificateKey: input.tls.serverKey,
    upstreams: upstreams.map((port) => `127.0.0.1:${port}`),
  });
  const configFile = await writeNginxConfig({
    runDir,
    catalogApi: site(input.nginxApiPort, ports, 'localhost'),
    authServer: site(input.nginxAuthPort, [input.authPort], 'localhost'),
  });
  const nginx = await startNginx({
    executable: input.nginx,
    configFile,
    runDir,
    host: '127.0.0.1',
    ports: [input.nginxApiPort, input.nginxAuthPort],
  });
  return {
    limiters: input.limiters,
    name,
    baseUrl: `https://localhost:${input.nginxApiPort}`,
    instances,
    nginx,
  };
}

async function createClient(shared: ClusterShared, dataDir: string) {
  const store = await openRecords({ engine: 'postgres', url: shared.databaseUrl, dataDir });
  const secret = generateClientSecret();
  const clientId = `BENCH${randomBytes(11).toString('hex').slice(0, 21).toUpperCase()}`;
  try {
    await store.clients.create({
      clientId,
      clientName: 'cluster bench',
      scopes: ['products.read', 'brands.read'],
      createdBy: { userId: 'bench', userName: 'bench' },
      expiresAt: null,
      channel: null,
      secretHash: hashClientSecret(
        secret,
        await loadClientSecretPepper({ dataDir, override: shared.clientSecretPepper }),
      ),
      tokenLifetimeSeconds: 86_400,
    });
  } finally {
    await store.close();
  }
  return { clientId, secret };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/**
 * Twice spec 8's rate offered to a pair at its default limits, from 20 addresses for `seconds`: the
 * requests accepted in each one-second window of the throttle the callers saw, the first (which holds
 * the burst) and the last (cut short) left out of the rate.
 */
async function measureThrottle(pair: Pair, ca: string, headers: Record<string, string>, seconds: number) {
  const origin = pair.baseUrl.replace('//localhost:', '//127.0.0.1:');
  const callers = new SourceAddresses(ca);
  const from = Array.from({ length: 20 }, (_, i) => `127.0.9.${i + 1}`);
  try {
    // A fresh burst: no limited request for more than a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const samples = await pacedLoad(2 * SPEC_RPS, seconds * 1000, (i) =>
      timedGet(callers.from(from[i % from.length] as string), `${origin}/brands`, headers),
    );
    const unexpected = samples.filter((sample) => sample.status !== 200 && sample.status !== 429);
    if (unexpected.length > 0) throw new Error(`throttle: ${unexpected.length} answers neither 200 nor 429`);
    const windows = throttleWindows(samples);
    const measured = windows.slice(1, -1);
    const span = ((windows.at(-1)?.start ?? 0) - (windows[1]?.start ?? 0)) / 1000;
    const accepted = measured.reduce((sum, window) => sum + window.accepted, 0);
    return {
      rate: span > 0 ? accepted / span : Number.NaN,
      firstWindow: windows[0]?.accepted ?? 0,
      perWindow: measured.map((window) => window.accepted),
      offered: samples.length,
    };
  } finally {
    await callers.close();
  }
}

async function main() {
  const nginx = findNginx(env.NGINX_PATH, env.PATH);
  if (nginx === undefined)
    throw new Error('nginx is not installed: apt-get install nginx, or set NGINX_PATH');
  const dir = await mkdtemp(join(tmpdir(), 'cluster-bench-'));
  const database = await createPostgresDatabase();
  const stops: Array<() => Promise<unknown>> = [];
  try {
    await ensureLocalTls(dir);
    const tls = localCaFiles(dir);
    const ca = await readFile(tls.caCert, 'utf8');
    const ports = { nginxAuth: await reservePort(), auth: await reservePort() };
    const nginxApi = { redis: await reservePort(), 'in-process': await reservePort() };
    const shared: ClusterShared = {
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      redisKeyPrefix: `catalog-bench:${process.pid}-${randomBytes(4).toString('hex')}:`,
      clientSecretPepper: randomBytes(32).toString('base64url'),
      syncTokenSecret: randomBytes(32).toString('base64url'),
      publicCatalogUrl: `https://localhost:${nginxApi.redis}`,
      publicAuthUrl: `https://localhost:${ports.nginxAuth}`,
      caFile: tls.caCert,
    };
    log(`token server, then ${PRODUCTS.toLocaleString('en')} demo products on PostgreSQL`);
    const auth = await startInstance({
      name: 'auth',
      entry: entry.auth,
      env: authServerEnv(shared, { dataDir: join(dir, 'auth'), port: ports.auth }),
      write: keepErrors,
      timeoutMs: 120_000,
    });
    stops.push(() => stopInstance(auth));
    const pairs: Pair[] = [];
    for (const limiters of ['redis', 'in-process'] as const) {
      // Only the Redis pair's nginx serves the token server's public URL (the issuer); the other
      // listens on a port of its own for the token site, unused.
      const pair = await startPair({
        limiters,
        dir,
        shared,
        tls,
        nginx,
        authPort: ports.auth,
        nginxAuthPort: limiters === 'redis' ? ports.nginxAuth : await reservePort(),
        nginxApiPort: nginxApi[limiters],
      });
      stops.push(() => pair.nginx.stop(), ...pair.instances.map((instance) => () => stopInstance(instance)));
      pairs.push(pair);
    }
    const { clientId, secret } = await createClient(shared, dir);
    const issued = await requestAccessToken({
      authUrl: shared.publicAuthUrl,
      ca,
      clientId,
      clientSecret: secret,
      scopes: ['products.read', 'brands.read'],
    });
    if (issued.token === undefined) throw new Error(`no token: ${issued.status} ${issued.body}`);
    const headers = { Authorization: `Bearer ${issued.token}` };
    const requests: Array<{ name: string; request: LoadRequest; status: number }> = [
      { name: 'typical search', request: { path: '/products/search?q=steel&size=20', headers }, status: 200 },
      {
        name: 'GET /brands/{unknown id} (404)',
        request: { path: `/brands/${randomBytes(16).toString('hex')}`, headers },
        status: 404,
      },
    ];
    const figures: object[] = [];
    const notes: string[] = [];
    for (const { name, request, status } of requests) {
      for (const pair of pairs) {
        const reply = await rawRequest(`${pair.baseUrl}${request.path}`, { headers, ca });
        if (reply.status !== status)
          throw new Error(
            `${name} via ${pair.limiters}: ${reply.status} ${reply.body.slice(0, 300)}\n${problems.slice(-10).join('\n')}`,
          );
      }
      const rounds: Record<Limiters, LoadResult[]> = { redis: [], 'in-process': [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const pair of round % 2 === 0 ? pairs : [...pairs].reverse()) {
          const result = await closedLoopLoad({
            baseUrl: pair.baseUrl,
            ca,
            concurrency: CONCURRENCY,
            warmupMs: 2000,
            measureMs: SECONDS * 1000,
            request,
            expectStatus: status,
          });
          if (result.unexpected > 0)
            throw new Error(`${name} via ${pair.limiters}: ${result.unexpected} unexpected statuses`);
          log(
            `${name}, ${pair.limiters}: ${Math.round(result.requestsPerSecond)} requests/s (p99 ${result.latencyMs.p99.toFixed(1)} ms)`,
          );
          rounds[pair.limiters].push(result);
        }
      }
      const redis = median(rounds.redis.map((result) => result.requestsPerSecond));
      const local = median(rounds['in-process'].map((result) => result.requestsPerSecond));
      // Each round's two runs are neighbours in time: their ratio is what drift in the machine's load
      // disturbs least, and the median of those ratios is the figure.
      const ratio = median(
        rounds.redis.map(
          (result, round) =>
            result.requestsPerSecond / (rounds['in-process'][round] as LoadResult).requestsPerSecond,
        ),
      );
      figures.push(
        {
          name: 'throughput with Redis limiters',
          value: redis,
          unit: 'requests/s',
          baseline: local,
          ratio,
          group: name,
        },
        {
          name: 'p99 with Redis limiters',
          value: median(rounds.redis.map((result) => result.latencyMs.p99)),
          unit: 'ms',
          baseline: median(rounds['in-process'].map((result) => result.latencyMs.p99)),
          group: name,
        },
      );
      notes.push(
        `${name}: rounds with Redis ${rounds.redis.map((r) => Math.round(r.requestsPerSecond)).join(', ')} requests/s; in-process ${rounds['in-process'].map((r) => Math.round(r.requestsPerSecond)).join(', ')}.`,
      );
    }
    log('the throttle at spec 8 limits: a third pair, counting in Redis');
    const specPair = await startPair({
      limiters: 'redis',
      name: 'spec-8',
      limits: {},
      dir,
      shared,
      tls,
      nginx,
      authPort: ports.auth,
      nginxAuthPort: await reservePort(),
      nginxApiPort: await reservePort(),
    });
    stops.push(
      () => specPair.nginx.stop(),
      ...specPair.instances.map((instance) => () => stopInstance(instance)),
    );
    const throttle = await measureThrottle(specPair, ca, headers, SECONDS);
    log(
      `throttle: ${throttle.rate.toFixed(1)} requests/s accepted over the saturated windows ` +
        `(${throttle.perWindow.join(' ')}), first window ${throttle.firstWindow}`,
    );
    figures.push(
      {
        name: 'sustained throttle, accepted per second',
        value: throttle.rate,
        unit: 'requests/s',
        baseline: SPEC_RPS,
        ratio: throttle.rate / SPEC_RPS,
        group: 'throttle at spec 8 limits (Redis, through nginx)',
      },
      {
        name: 'first window (the burst)',
        value: throttle.firstWindow,
        unit: 'requests',
        group: 'throttle at spec 8 limits (Redis, through nginx)',
      },
    );
    notes.push(
      `Throttle at spec 8 limits: ${throttle.offered} requests offered at ${2 * SPEC_RPS}/s from 20 addresses over ${SECONDS} s; accepted per saturated window ${throttle.perWindow.join(', ')} (the baseline of the rate is spec 8's 50/s; the ratio 1 = exact).`,
    );
    const results = {
      part: 'cluster',
      title: 'Cluster: limits in Redis through nginx',
      command: 'pnpm --filter @catalog/e2e run bench',
      finishedAt: new Date().toISOString(),
      loadAverage: loadavg(),
      parameters: {
        products: PRODUCTS,
        concurrency: CONCURRENCY,
        roundsPerPair: ROUNDS,
        measuredSecondsPerRound: SECONDS,
        maxCost: MAX_COST,
      },
      figures,
      notes: [
        'Two catalog API instances behind one nginx (TLS) per configuration, one token server, one PostgreSQL database; limits set far above the load (every request admitted and counted). Baseline = the same topology with in-process limiters, in alternating rounds of the same run (Redis first, then in-process first, and so on); throughputs are the medians of the rounds of each configuration, the ratio is the median of the ratios within each round.',
        "The Redis round trip is one script call per request whatever the catalogue holds, so the catalogue is small here: at 1M products every search costs the API more and Redis's share of it is smaller. GET /brands/{unknown id}, the cheapest authenticated request, bounds that share from above.",
        ...notes,
      ],
    };
    await mkdir(join(root, 'tests/e2e/.bench'), { recursive: true });
    await writeFile(join(root, 'tests/e2e/.bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
    log('results written to tests/e2e/.bench/results.json');
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
