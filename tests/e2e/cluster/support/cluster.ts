// The topology of README "Deployment", as `pnpm start:cluster` runs it: two catalog API and two
// token-server instances, started from their build output with the environment of
// scripts/cluster/instance-env.mts, behind nginx on the configuration rendered from deploy/nginx.
// Each cluster has a PostgreSQL database of its own (dropped by stop()), a Redis key prefix of its
// own under the run's (removed when the run ends), and reaches Redis through a RedisFaultProxy, so
// a test can cut Redis off as a stopped server would look without stopping the machine's Redis.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// nginx's certificate comes from the servers' own local CA, as `pnpm start:cluster` makes it.
import { ensureLocalTls, localCaFiles } from '@catalog/server-runtime';
import { RedisFaultProxy, type SpawnedService, spawnService } from '@catalog/server-runtime/testing';
import { inject } from 'vitest';
import {
  authServerEnv,
  type ClusterShared,
  catalogApiEnv,
  operatorEnv,
} from '../../../../scripts/cluster/instance-env.mts';
import {
  accessLogOf,
  type NginxTimeouts,
  writeNginxConfig,
} from '../../../../scripts/cluster/nginx-config.mts';
import { startNginx } from '../../../../scripts/cluster/nginx-process.mts';
import { supervise } from '../../../../scripts/cluster/supervisor.mts';
import { createPostgresDatabase, type PostgresDatabase } from '../../support/postgres-database.ts';
import { settings } from '../../support/settings.ts';
import { reservePort } from './ports.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const builtEntry = {
  api: join(repoRoot, 'apps/catalog-api/dist/main.js'),
  auth: join(repoRoot, 'apps/auth-server/dist/main.js'),
} as const;

type Role = keyof typeof builtEntry;

/**
 * One instance, reachable past nginx as nginx reaches it: plain HTTP on loopback. Supervised as
 * `pnpm start:cluster` supervises it (scripts/cluster/supervisor.mts): started again when it dies.
 */
export interface ClusterInstance {
  readonly name: string;
  /** `http://127.0.0.1:<port>`: send `X-Forwarded-Proto: https`, as callers.ts's direct() does. */
  readonly url: string;
  /** The running process (a new one after each restart). */
  service(): SpawnedService;
  /**
   * kill -9 (no shutdown hook runs: no usage flush, no drain); resolves once it has exited, with
   * what restarted() waits for. The supervisor starts it again, on the same port and DATA_DIR.
   */
  kill(): Promise<{ restarted(): Promise<void> }>;
  /** SIGTERM, supervision ended: flushes its usage counts, exits (SHUTDOWN_DRAIN_MS is 0 in tests). */
  stop(): Promise<void>;
}

export interface Cluster {
  /** The directory holding the cluster's TLS material (tls/ca.pem), nginx's files and each DATA_DIR. */
  readonly dir: string;
  /** nginx's URLs, the only ones a caller uses. */
  readonly baseUrl: string;
  readonly authUrl: string;
  /** PEM of the CA of nginx's certificate. */
  readonly ca: string;
  /** nginx's access log. */
  readonly accessLog: string;
  readonly database: PostgresDatabase;
  /** What the operator CLI is given to work on the cluster (instance-env.mts). */
  readonly operatorEnv: Record<string, string>;
  /** Between every instance and Redis. */
  readonly redis: RedisFaultProxy;
  readonly api: readonly [ClusterInstance, ClusterInstance];
  readonly auth: readonly [ClusterInstance, ClusterInstance];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Extra environment for every instance (RATE_LIMIT_*, USAGE_FLUSH_MS…). */
  readonly env?: Record<string, string>;
  /** DEMO_CATALOGUE_PRODUCTS; `pnpm start`'s default (5,000) when absent. */
  readonly demoProducts?: number;
  /** nginx's deadlines for slow callers; `pnpm start:cluster`'s when absent. */
  readonly nginxTimeouts?: NginxTimeouts;
}

let clustersStarted = 0;

/**
 * An API instance whose search replica is new builds it after it listens, refusing searches until
 * then: the cluster is handed over once it has (as an orchestrator waits for /ready), so that no test
 * meets a 503 SEARCH_INCOMPLETE of a start-up. Its log says so; bounded by a count of polls.
 */
async function searchReplicaBuilt(service: SpawnedService): Promise<SpawnedService> {
  for (let poll = 0; poll < 6000 && !service.output().includes('"msg":"search replica built"'); poll += 1) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return service;
}

function startInstance(role: Role, name: string, port: number, env: Record<string, string>) {
  return async (): Promise<ClusterInstance> => {
    const supervised = await supervise<SpawnedService>({
      name,
      start: async () => {
        const service = await spawnService({ entry: builtEntry[role], env, sourceConditions: false });
        return role === 'api' ? searchReplicaBuilt(service) : service;
      },
      exited: async (service) => {
        const { child } = service;
        if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
        return String(child.signalCode ?? child.exitCode);
      },
      stopProcess: async (service) => {
        await service.stop();
      },
    });
    return {
      name,
      url: `http://127.0.0.1:${port}`,
      service: () => supervised.current(),
      async kill() {
        const seen = supervised.starts();
        const { child } = supervised.current();
        if (child.exitCode === null && child.signalCode === null) {
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
        }
        return {
          restarted: async () => {
            await supervised.startedAfter(seen);
          },
        };
      },
      stop: () => supervised.stop(),
    };
  };
}

export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-cluster-'));
  const cleanups: Array<() => Promise<unknown>> = [() => rm(dir, { recursive: true, force: true })];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const database = await createPostgresDatabase();
    cleanups.push(() => database.drop());
    const redis = await RedisFaultProxy.start(inject('redisUrl'));
    cleanups.push(() => redis.close());
    await ensureLocalTls(dir);
    const tls = localCaFiles(dir);
    clustersStarted += 1;
    const ports = {
      nginx: { api: await reservePort(), auth: await reservePort() },
      api: [await reservePort(), await reservePort()],
      auth: [await reservePort(), await reservePort()],
    };
    const shared: ClusterShared = {
      databaseUrl: database.url,
      redisUrl: redis.url,
      redisKeyPrefix: `${inject('redisRunPrefix')}cluster-${process.pid}-${clustersStarted}:`,
      clientSecretPepper: randomBytes(32).toString('base64url'),
      syncTokenSecret: randomBytes(32).toString('base64url'),
      publicCatalogUrl: `https://localhost:${ports.nginx.api}`,
      publicAuthUrl: `https://localhost:${ports.nginx.auth}`,
      caFile: tls.caCert,
    };
    const demo =
      options.demoProducts === undefined ? {} : { DEMO_CATALOGUE_PRODUCTS: String(options.demoProducts) };
    const api = (index: number) => {
      const place = { dataDir: join(dir, `api-${index + 1}`), port: ports.api[index] as number };
      const env = { ...catalogApiEnv(shared, place), ...demo, ...options.env };
      return startInstance('api', `api-${index + 1}`, place.port, env);
    };
    const auth = (index: number) => {
      const place = { dataDir: join(dir, `auth-${index + 1}`), port: ports.auth[index] as number };
      return startInstance('auth', `auth-${index + 1}`, place.port, {
        ...authServerEnv(shared, place),
        ...options.env,
      });
    };
    const instances: ClusterInstance[] = [];
    cleanups.push(() => Promise.all(instances.map((instance) => instance.stop())));
    const started = async (start: () => Promise<ClusterInstance>) => {
      const instance = await start();
      instances.push(instance);
      return instance;
    };
    // The first API instance loads the demo catalogue into the empty database; the second then
    // copies it into its replica, as `pnpm start:cluster` starts them.
    // Settled, all of them, before a failure is thrown: none is left running behind the clean-up.
    const [auth1, auth2, api1] = (
      await Promise.allSettled([started(auth(0)), started(auth(1)), started(api(0))])
    ).map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    }) as [ClusterInstance, ClusterInstance, ClusterInstance];
    const api2 = await started(api(1));

    const runDir = join(dir, 'nginx');
    const site = (port: number, upstreams: readonly number[]) => ({
      listen: `127.0.0.1:${port}`,
      serverName: 'localhost',
      certificate: tls.serverCert,
      certificateKey: tls.serverKey,
      upstreams: upstreams.map((upstream) => `127.0.0.1:${upstream}`),
    });
    const nginx = await startNginx({
      executable: settings.nginx,
      configFile: await writeNginxConfig({
        runDir,
        catalogApi: site(ports.nginx.api, ports.api),
        authServer: site(ports.nginx.auth, ports.auth),
        ...(options.nginxTimeouts === undefined ? {} : { timeouts: options.nginxTimeouts }),
      }),
      runDir,
      host: '127.0.0.1',
      ports: [ports.nginx.api, ports.nginx.auth],
    });
    cleanups.push(() => nginx.stop());
    return {
      dir,
      baseUrl: shared.publicCatalogUrl,
      authUrl: shared.publicAuthUrl,
      ca: await readFile(tls.caCert, 'utf8'),
      accessLog: accessLogOf(runDir),
      database,
      operatorEnv: operatorEnv(shared, dir),
      redis,
      api: [api1, api2],
      auth: [auth1, auth2],
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
