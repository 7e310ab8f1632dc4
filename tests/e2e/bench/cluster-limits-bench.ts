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
//   BENCH_SECONDS        measured seconds per round (default 10); BENCH_ROUNDS rounds per pair (5)
//   BENCH_CONCURRENCY    callers (default 32)
//   BENCH_CLUSTER_PRODUCTS  the demo catalogue the first instance loads (default 20,000)
//   TEST_DATABASE_URL / TEST_REDIS_URL  the servers (defaults: the machine's), NGINX_PATH
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  loadClientSecretPepper,
  localCaFiles,
} from '@catalog/server-runtime';
import { closedLoopLoad, type LoadRequest, type LoadResult } from '@catalog/server-runtime/load';
import { rawRequest, requestAccessToken } from '@catalog/server-runtime/testing';
import { openRecordStore } from '@catalog/store';
import { DEFAULT_TEST_REDIS_URL } from '@catalog/vitest-config/redis-run-prefix';
import { authServerEnv, type ClusterShared, catalogApiEnv } from '../../../scripts/cluster/instance-env.mts';
import { type InstanceProcess, startInstance } from '../../../scripts/cluster/instance-process.mts';
import { writeNginxConfig } from '../../../scripts/cluster/nginx-config.mts';
import { findNginx, type NginxProcess, startNginx } from '../../../scripts/cluster/nginx-process.mts';
import { reservePort } from '../cluster/support/ports.ts';
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
  readonly baseUrl: string;
  readonly instances: InstanceProcess[];
  readonly nginx: NginxProcess;
}

async function startPair(input: {
  readonly limiters: Limiters;
  readonly dir: string;
  readonly shared: ClusterShared;
  readonly tls: ReturnType<typeof localCaFiles>;
  readonly nginx: string;
  readonly authPort: number;
  readonly nginxAuthPort: number;
  readonly nginxApiPort: number;
}): Promise<Pair> {
  const instances: InstanceProcess[] = [];
  const ports = [await reservePort(), await reservePort()];
  for (const [index, port] of ports.entries()) {
    const place = { dataDir: join(input.dir, `${input.limiters}-api-${index + 1}`), port };
    const instanceEnv: Record<string, string> = {
      ...catalogApiEnv(input.shared, place),
      ...UNBINDING_LIMITS,
      DEMO_CATALOGUE_PRODUCTS: String(PRODUCTS),
    };
    if (input.limiters === 'in-process') {
      delete instanceEnv.REDIS_URL;
      delete instanceEnv.REDIS_KEY_PREFIX;
    }
    // One at a time: the first start on the empty database loads the demo catalogue.
    instances.push(
      await startInstance({
        name: `${input.limiters}-api-${index + 1}`,
        entry: entry.api,
        env: instanceEnv,
        write: keepErrors,
        timeoutMs: 600_000,
      }),
    );
  }
  const runDir = join(input.dir, `nginx-${input.limiters}`);
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
  return { limiters: input.limiters, baseUrl: `https://localhost:${input.nginxApiPort}`, instances, nginx };
}

async function createClient(shared: ClusterShared, dataDir: string) {
  const store = await openRecordStore({ engine: 'postgres', url: shared.databaseUrl, dataDir });
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
