// Both servers started from their build output on a fresh DATA_DIR, exactly as `pnpm start` runs
// them (`node --enable-source-maps dist/main.js`, the default demo catalogue), and everything an
// integrator or an administrator does around them done the documented way: the admin user through
// the operator CLI, clients through POST /oauth/clients, tokens from the token endpoint.
//
// The records are where E2E_ENGINE says: the embedded SQLite file in DATA_DIR, or a fresh PostgreSQL
// database of the stack's own, which the servers, their restarts and every operator CLI run are
// given as DATABASE_URL, and which stop() drops. E2E_ENGINE=cluster makes the stack a cluster
// (../cluster/support/cluster.ts): the same calls, through nginx, to two instances of each server.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GrantableScope } from '@catalog/contracts';
import {
  type ExitResult,
  requestAccessToken,
  runEntry,
  runToExit,
  type SpawnedService,
  spawnService,
} from '@catalog/server-runtime/testing';
import type { StorageLocation } from '@catalog/store';
import { Agent, type Dispatcher, request } from 'undici';
import type { Cluster } from '../cluster/support/cluster.ts';
import { type JsonReply, readJsonReply } from './json-reply.ts';
import { createPostgresDatabase, type PostgresDatabase } from './postgres-database.ts';
import { settings } from './settings.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const builtEntry = {
  api: join(repoRoot, 'apps/catalog-api/dist/main.js'),
  auth: join(repoRoot, 'apps/auth-server/dist/main.js'),
  adminCli: join(repoRoot, 'apps/operator-cli/dist/admin-cli.js'),
  catalogCli: join(repoRoot, 'apps/operator-cli/dist/catalog-cli.js'),
} as const;

export type ServerName = 'api' | 'auth';

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export type { JsonReply };

export interface StackOptions {
  /** Extra environment for both servers (for example the RATE_LIMIT_* settings). */
  readonly env?: Record<string, string>;
  /** DEMO_CATALOGUE_PRODUCTS; `pnpm start`'s default (5,000) when absent. */
  readonly demoProducts?: number;
  /** Rate limits stay at their defaults only when asked: most suites need them off. */
  readonly rateLimits?: 'default' | 'off';
}

export interface E2EStack {
  readonly dataDir: string;
  /** Where the records are: DATA_DIR's SQLite file, or the stack's PostgreSQL database (E2E_ENGINE). */
  readonly location: StorageLocation;
  /** PEM of the local CA under DATA_DIR/tls. */
  readonly ca: string;
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly dispatcher: Dispatcher;
  /** The server's process (on a cluster, its first instance's; so for kill and restart). */
  service(name: ServerName): SpawnedService;
  /** An administrator's ID token, from `pnpm --silent admin token` against this stack. */
  adminIdToken(): Promise<string>;
  /** The stack's administrator's email (created on first use). */
  adminEmail(): Promise<string>;
  /**
   * `pnpm admin token` with any email and password, as an administrator (or a guesser) signs in:
   * the ID token on success, undefined when the login page refused.
   */
  signIn(email: string, password: string): Promise<string | undefined>;
  /** `pnpm admin …` or `pnpm catalog …` on this stack's records, as an operator runs it (password as ADMIN_PASSWORD). */
  operator(cli: 'admin' | 'catalog', args: string[], password?: string): Promise<ExitResult>;
  /** The same command left running, for a test that kills it midway. */
  spawnOperator(cli: 'admin' | 'catalog', args: string[]): ChildProcess;
  /** A client created through POST /oauth/clients, as an administrator would. */
  createClient(
    scopes?: readonly GrantableScope[],
    body?: Record<string, unknown>,
  ): Promise<Credentials & { readonly created: Record<string, unknown> }>;
  /** A client-credentials access token for the given scopes (unprefixed). */
  accessToken(credentials: Credentials, scopes?: readonly GrantableScope[]): Promise<string>;
  /** One HTTPS request to the API (a path relative to the base URL) with an optional bearer token. */
  api(
    path: string,
    options?: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<JsonReply>;
  /** kill -9 one server: no shutdown hooks run. */
  kill(name: ServerName): Promise<void>;
  /**
   * Starts a stopped or killed server again on the same port and DATA_DIR (on a cluster its
   * supervisor does that after kill(): this waits until it listens again).
   */
  restart(name: ServerName): Promise<void>;
  stop(): Promise<void>;
}

/** The password of the stack's administrator (tests check it never leaks into logs or the audit trail). */
export const ADMIN_PASSWORD = 'correct horse battery staple';

export async function startE2EStack(options: StackOptions = {}): Promise<E2EStack> {
  return stackOn(settings.engine === 'cluster' ? await clusterServers(options) : await serverPair(options));
}

/** What a stack's servers are, whichever started them: one server pair, or a cluster. */
interface StackServers {
  readonly dataDir: string;
  readonly location: StorageLocation;
  /**
   * What the operator CLI is given to work on the records: DATA_DIR, DATABASE_URL on PostgreSQL, and
   * on a cluster the pepper its signing keys are sealed with.
   */
  readonly operatorEnv: Record<string, string>;
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly ca: string;
  service(name: ServerName): SpawnedService;
  kill(name: ServerName): Promise<void>;
  restart(name: ServerName): Promise<void>;
  /** Stops the servers and removes what they kept (DATA_DIR, the database). */
  stop(): Promise<void>;
}

/** Most suites need the limits off; RATE_LIMIT_* in `env` still win. */
const limitsEnv = (options: StackOptions) =>
  options.rateLimits === 'default' ? {} : { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '0' };

/**
 * E2E_ENGINE=cluster: the stack is a cluster (two instances of each server behind nginx); a server's
 * service, kill and restart are its first instance's.
 */
async function clusterServers(options: StackOptions): Promise<StackServers> {
  // Loaded only for a cluster: it reads vitest's provided values, which scripts outside vitest (the
  // console screenshots) do not have.
  const { startCluster } = await import('../cluster/support/cluster.ts');
  return serversOf(
    await startCluster({
      env: { ...limitsEnv(options), ...options.env },
      ...(options.demoProducts === undefined ? {} : { demoProducts: options.demoProducts }),
    }),
  );
}

function serversOf(cluster: Cluster): StackServers {
  const first = (name: ServerName) => cluster[name][0];
  const killed = new Map<ServerName, () => Promise<void>>();
  return {
    dataDir: cluster.dir,
    location: { engine: 'postgres', url: cluster.database.url, dataDir: cluster.dir },
    operatorEnv: cluster.operatorEnv,
    baseUrl: cluster.baseUrl,
    authUrl: cluster.authUrl,
    ca: cluster.ca,
    service: (name) => first(name).service(),
    async kill(name) {
      killed.set(name, (await first(name).kill()).restarted);
    },
    async restart(name) {
      const restarted = killed.get(name);
      killed.delete(name);
      await restarted?.();
    },
    stop: () => cluster.stop(),
  };
}

/** A stack on a cluster the caller started and reaches the instances of; stop() stops the cluster. */
export const clusterStack = (cluster: Cluster): E2EStack => stackOn(serversOf(cluster));

async function serverPair(options: StackOptions): Promise<StackServers> {
  const dataDir = await mkdtemp(join(tmpdir(), 'e2e-stack-'));
  let database: PostgresDatabase | undefined;
  try {
    if (settings.engine === 'postgres') database = await createPostgresDatabase();
    return await startServers(dataDir, database, options);
  } catch (error) {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function startServers(
  dataDir: string,
  database: PostgresDatabase | undefined,
  options: StackOptions,
): Promise<StackServers> {
  const location: StorageLocation =
    database === undefined
      ? { engine: 'sqlite', dataDir }
      : { engine: 'postgres', url: database.url, dataDir };
  // Everything that opens the records: both servers, their restarts and the operator CLI.
  const storeEnv = { DATA_DIR: dataDir, ...(database === undefined ? {} : { DATABASE_URL: database.url }) };
  const demo =
    options.demoProducts === undefined ? {} : { DEMO_CATALOGUE_PRODUCTS: String(options.demoProducts) };
  const authEnv = (port: number) => ({ ...storeEnv, AUTH_SERVER_PORT: String(port), ...options.env });
  const services: Record<ServerName, SpawnedService> = {} as Record<ServerName, SpawnedService>;
  services.auth = await spawnService({ entry: builtEntry.auth, env: authEnv(0), sourceConditions: false });
  const authUrl = services.auth.url;
  const apiEnv = (port: number) => ({
    ...storeEnv,
    CATALOG_API_PORT: String(port),
    PUBLIC_AUTH_URL: authUrl,
    ...limitsEnv(options),
    ...demo,
    ...options.env,
  });
  try {
    services.api = await spawnService({
      entry: builtEntry.api,
      env: apiEnv(0),
      sourceConditions: false,
    });
  } catch (error) {
    await services.auth.stop();
    throw error;
  }
  const ports = { api: services.api.port, auth: services.auth.port };
  const envFor = { api: () => apiEnv(ports.api), auth: () => authEnv(ports.auth) };
  return {
    dataDir,
    location,
    operatorEnv: storeEnv,
    baseUrl: services.api.url,
    authUrl,
    ca: await readFile(join(dataDir, 'tls', 'ca.pem'), 'utf8'),
    service: (name) => services[name],
    async kill(name) {
      const child = services[name].child;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async restart(name) {
      const child = services[name].child;
      if (child.exitCode === null && child.signalCode === null) await services[name].stop();
      services[name] = await spawnService({
        entry: builtEntry[name],
        env: envFor[name](),
        sourceConditions: false,
      });
    },
    async stop() {
      await Promise.all([services.api.stop(), services.auth.stop()]);
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Everything an integrator, an administrator or an operator does around a stack's servers. */
function stackOn(servers: StackServers): E2EStack {
  const { dataDir, location, operatorEnv, baseUrl, authUrl, ca } = servers;
  const dispatcher = new Agent({ connect: { ca } });

  // One administrator per stack, created once even when several callers ask at the same time.
  let adminEmail: Promise<string> | undefined;
  const operatorRun = (cli: 'admin' | 'catalog', args: string[], password = ADMIN_PASSWORD) => ({
    entry: cli === 'admin' ? builtEntry.adminCli : builtEntry.catalogCli,
    args,
    sourceConditions: false,
    env: { ...operatorEnv, PUBLIC_AUTH_URL: authUrl, ADMIN_PASSWORD: password },
  });
  const operator = (cli: 'admin' | 'catalog', args: string[], password?: string) =>
    runToExit(operatorRun(cli, args, password));
  const runAdminCli = async (args: string[]): Promise<string> => {
    const result = await operator('admin', args);
    if (result.code !== 0)
      throw new Error(`admin ${args.join(' ')} exited with ${result.code}:\n${result.output}`);
    return result.stdout;
  };

  const api: E2EStack['api'] = async (path, requestOptions = {}) => {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.token !== undefined) headers.authorization = `Bearer ${requestOptions.token}`;
    let body: string | undefined;
    if (requestOptions.body !== undefined) {
      body = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const reply = await request(`${baseUrl}${path}`, {
      method: (requestOptions.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      ...(body === undefined ? {} : { body }),
      dispatcher,
    });
    return readJsonReply(reply);
  };

  const stack: E2EStack = {
    dataDir,
    location,
    ca,
    baseUrl,
    authUrl,
    dispatcher,
    service: (name) => servers.service(name),
    adminEmail() {
      adminEmail ??= (async () => {
        const email = `admin.${Date.now()}@example.test`;
        await runAdminCli(['users', 'add', '--email', email, '--group', 'admin']);
        return email;
      })();
      return adminEmail;
    },
    async adminIdToken() {
      return (await runAdminCli(['token', '--email', await stack.adminEmail()])).trim();
    },
    async signIn(email, password) {
      const result = await operator('admin', ['token', '--email', email], password);
      return result.code === 0 ? result.stdout.trim() : undefined;
    },
    operator,
    spawnOperator: (cli, args) => runEntry(operatorRun(cli, args)),
    async createClient(scopes = ['products.read', 'brands.read'], body = {}) {
      const reply = await api('/oauth/clients', {
        method: 'POST',
        token: await stack.adminIdToken(),
        body: { clientName: `e2e client ${Date.now()}`, scopes, ...body },
      });
      if (reply.status !== 201) throw new Error(`POST /oauth/clients → ${reply.status}: ${reply.text}`);
      const created = reply.body as Record<string, unknown>;
      return { clientId: String(created.clientId), clientSecret: String(created.clientSecret), created };
    },
    async accessToken(credentials, scopes = ['products.read', 'brands.read']) {
      const reply = await requestAccessToken({ authUrl, ca, ...credentials, scopes });
      if (reply.token === undefined) throw new Error(`token request → ${reply.status}: ${reply.body}`);
      return reply.token;
    },
    api,
    kill: (name) => servers.kill(name),
    restart: (name) => servers.restart(name),
    async stop() {
      await servers.stop();
      await dispatcher.close();
    },
  };
  return stack;
}
