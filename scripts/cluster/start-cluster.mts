// `pnpm start:cluster`: the topology of README "Deployment" on this machine. Two catalog API and two
// token-server instances (the build output, as `pnpm start` runs it) on one PostgreSQL database and
// one Redis, behind nginx terminating TLS with the local CA's certificate; demo data on the first
// start; the URLs printed; an instance that dies is started again after a back-off (supervisor.mts)
// while nginx serves from the others, and so is nginx; Ctrl-C stops nginx, then every instance, and
// exits 0 (a second Ctrl-C kills what is left at once).
import { type ChildProcess, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
// The build output, as the servers run (the package script builds it first).
import { ensureLocalTls, localCaFiles } from '../../packages/server-runtime/dist/tls/local-ca.js';
import { loadClusterSecrets } from './cluster-secrets.mts';
import { type ClusterSettings, ClusterSettingsError, readClusterSettings } from './cluster-settings.mts';
import { DatabaseUnavailableError, describeDatabase, ensureDatabase } from './ensure-database.mts';
import { authServerEnv, type ClusterShared, catalogApiEnv, operatorEnv } from './instance-env.mts';
import { type InstanceProcess, InstanceStartError, startInstance } from './instance-process.mts';
import { writeNginxConfig } from './nginx-config.mts';
import { findNginx, type NginxProcess, NginxStartError, startNginx } from './nginx-process.mts';
import { type Supervised, type SupervisorEvent, supervise } from './supervisor.mts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = {
  api: join(root, 'apps/catalog-api/dist/main.js'),
  auth: join(root, 'apps/auth-server/dist/main.js'),
  catalogCli: join(root, 'apps/operator-cli/dist/catalog-cli.js'),
};
/** A first start loads and indexes the demo catalogue before the API listens. */
const INSTANCE_START_MS = 180_000;

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string, code = 1): never => {
  for (const line of message.split('\n')) process.stderr.write(`start:cluster: ${line}\n`);
  process.exit(code);
};

/** A TCP connection to Redis: one clear line now rather than every instance deciding limits alone. */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}

function describeEvent(event: SupervisorEvent): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  switch (event.kind) {
    case 'exited':
      return event.name === 'nginx'
        ? `nginx exited (${event.how}); restarting it in ${seconds(event.delayMs)}`
        : `${event.name} exited (${event.how}); nginx serves from the others, restarting it in ${seconds(event.delayMs)}`;
    case 'start-failed':
      return `${event.name} did not start again (${(event.error as Error).message}); next try in ${seconds(event.delayMs)}`;
    case 'restarted':
      return `${event.name} is back`;
  }
}

async function prepare(settings: ClusterSettings): Promise<{ nginx: string; shared: ClusterShared }> {
  const nginx = findNginx(settings.nginxPath, settings.path);
  if (nginx === undefined)
    fail("nginx is not installed: install Debian's nginx package (apt-get install nginx) or set NGINX_PATH");
  if (!(await redisAnswers(settings.redisUrl)))
    fail('Redis is not reachable at REDIS_URL (default redis://127.0.0.1:6379): start it or set REDIS_URL');
  try {
    if (await ensureDatabase(settings.databaseUrl))
      say(`created the database ${describeDatabase(settings.databaseUrl)}`);
  } catch (error) {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    throw error;
  }
  await mkdir(settings.clusterDir, { recursive: true, mode: 0o700 });
  const migrate = spawnSync(process.execPath, [entry.catalogCli, 'migrate'], {
    env: { ...process.env, DATABASE_URL: settings.databaseUrl, DATA_DIR: settings.clusterDir },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) fail('pnpm catalog migrate failed, see above');
  const secrets = await loadClusterSecrets(settings.clusterDir, {
    ...(settings.clientSecretPepper === undefined ? {} : { clientSecretPepper: settings.clientSecretPepper }),
    ...(settings.syncTokenSecret === undefined ? {} : { syncTokenSecret: settings.syncTokenSecret }),
  });
  await ensureLocalTls(settings.clusterDir);
  return {
    nginx: nginx as string,
    shared: {
      databaseUrl: settings.databaseUrl,
      redisUrl: settings.redisUrl,
      redisKeyPrefix: settings.redisKeyPrefix,
      ...secrets,
      publicCatalogUrl: `https://localhost:${settings.catalogPort}`,
      publicAuthUrl: `https://localhost:${settings.authPort}`,
      caFile: localCaFiles(settings.clusterDir).caCert,
    },
  };
}

async function main(): Promise<void> {
  let settings: ClusterSettings;
  try {
    settings = readClusterSettings(process.env);
  } catch (error) {
    if (error instanceof ClusterSettingsError) fail(error.message, 2);
    throw error;
  }
  const { nginx, shared } = await prepare(settings);
  const instances: Supervised<InstanceProcess>[] = [];
  // Every instance process running, one still starting included (a first start loads the demo
  // catalogue for minutes): each has a process group of its own, which a Ctrl-C does not reach.
  const running = new Set<ChildProcess>();
  let proxy: Supervised<NginxProcess> | undefined;
  let stopping = false;

  // nginx first, so that nothing new reaches an instance, then every instance (SIGINT: it finishes
  // the requests in flight, writes its usage counts and exits 0). Only this stops the cluster: an
  // instance that dies is restarted by its supervisor while nginx serves from the others.
  const stop = async (code: number) => {
    if (stopping) {
      for (const child of running) child.kill('SIGKILL');
      proxy?.current().child.kill('SIGKILL');
      process.exit(130);
    }
    stopping = true;
    say('stopping: nginx, then every instance');
    await proxy?.stop();
    // Supervision ends first (synchronously), so that nothing is started again.
    const supervisions = instances.map((instance) => instance.stop());
    const exits = [...running].map((child) => {
      child.kill('SIGINT');
      return exitOf(child);
    });
    await Promise.all([...supervisions, ...exits]);
    say('cluster stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const start = async (name: string, server: 'api' | 'auth', dataDir: string) => {
    let port = 0;
    const instance = await supervise({
      name,
      // A restart takes the port the first start was given: it is the one in nginx's upstream.
      start: () => {
        const place = { dataDir, port };
        return startInstance({
          name,
          entry: entry[server],
          env: server === 'api' ? catalogApiEnv(shared, place) : authServerEnv(shared, place),
          write: say,
          timeoutMs: INSTANCE_START_MS,
          onSpawn: (child) => {
            running.add(child);
            child.once('exit', () => running.delete(child));
          },
        });
      },
      exited: (running) => running.exited,
      stopProcess: async (running) => {
        running.child.kill('SIGINT');
        await running.exited;
      },
      onEvent: (event) => process.stderr.write(`start:cluster: ${describeEvent(event)}\n`),
    });
    port = instance.current().port;
    instances.push(instance);
    return instance.current();
  };

  try {
    // A DATA_DIR per instance: the token servers keep nothing there behind nginx on PostgreSQL (their
    // signing keys are in the database), each API instance its search replica. The first API
    // instance loads the demo catalogue into an empty database; the second copies it into its replica.
    // Both settled before a failure is thrown: the stop that follows finds every one that started.
    const auth = (
      await Promise.allSettled([
        start('auth-1', 'auth', join(settings.clusterDir, 'auth-1')),
        start('auth-2', 'auth', join(settings.clusterDir, 'auth-2')),
      ])
    ).map((outcome) => {
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    });
    const api = [await start('api-1', 'api', join(settings.clusterDir, 'api-1'))];
    api.push(await start('api-2', 'api', join(settings.clusterDir, 'api-2')));
    const tls = localCaFiles(settings.clusterDir);
    const site = (port: number, group: InstanceProcess[]) => ({
      listen: `127.0.0.1:${port}`,
      serverName: 'localhost',
      certificate: tls.serverCert,
      certificateKey: tls.serverKey,
      upstreams: group.map((instance) => `127.0.0.1:${instance.port}`),
    });
    const runDir = join(settings.clusterDir, 'nginx');
    const configFile = await writeNginxConfig({
      runDir,
      catalogApi: site(settings.catalogPort, api),
      authServer: site(settings.authPort, auth),
    });
    // nginx is supervised as the instances are: while it is down nothing is served at all.
    proxy = await supervise({
      name: 'nginx',
      start: () =>
        startNginx({
          executable: nginx,
          configFile,
          runDir,
          host: '127.0.0.1',
          ports: [settings.catalogPort, settings.authPort],
          detached: true,
        }),
      exited: async (running) => {
        const { child } = running;
        await exitOf(child);
        // Its workers outlive a master killed with -9 and keep its ports: its process group goes too.
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          // The group is gone already.
        }
        if (!stopping) process.stderr.write(`start:cluster: nginx's last output:\n${running.output()}\n`);
        return String(child.signalCode ?? child.exitCode);
      },
      stopProcess: (running) => running.stop(),
      onEvent: (event) => process.stderr.write(`start:cluster: ${describeEvent(event)}\n`),
    });
    printUrls(settings, shared, await writeOperatorEnv(settings, shared), api, auth);
  } catch (error) {
    // Whatever went wrong, nothing started is left running: the instances are in groups of their own.
    // A start cut short by a stop under way is that stop's to finish.
    if (stopping) return;
    const expected = error instanceof InstanceStartError || error instanceof NginxStartError;
    process.stderr.write(
      `start:cluster: ${expected ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    await stop(1);
  }
}

/**
 * What an operator sources before `pnpm admin` or `pnpm catalog` on the cluster (mode 0600: it holds
 * the pepper): written at every start, since the database and URLs may have changed.
 */
async function writeOperatorEnv(settings: ClusterSettings, shared: ClusterShared): Promise<string> {
  const file = join(settings.clusterDir, 'operator.env');
  const lines = Object.entries(operatorEnv(shared, settings.clusterDir)).map(
    ([name, value]) => `${name}='${value.replaceAll("'", "'\\''")}'`,
  );
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return file;
}

function printUrls(
  settings: ClusterSettings,
  shared: ClusterShared,
  operatorFile: string,
  api: readonly InstanceProcess[],
  auth: readonly InstanceProcess[],
): void {
  // Relative to where the command runs when inside it, as the README's commands are written.
  const shown = (path: string) => {
    const inside = relative(process.cwd(), path);
    return inside === '' ? '.' : inside.startsWith('..') ? path : inside;
  };
  const ca = shown(shared.caFile);
  const ports = (group: readonly InstanceProcess[]) => group.map((instance) => instance.port).join(', ');
  say('');
  say('cluster up: 2 catalog API and 2 token-server instances behind nginx, on PostgreSQL and Redis');
  say(`  catalog API    ${shared.publicCatalogUrl}   (instances on 127.0.0.1 ports ${ports(api)})`);
  say(`  admin console  ${shared.publicCatalogUrl}/console/`);
  say(`  token server   ${shared.publicAuthUrl}   (instances on 127.0.0.1 ports ${ports(auth)})`);
  say(
    `  database       ${describeDatabase(settings.databaseUrl)}, Redis keys under ${settings.redisKeyPrefix}`,
  );
  say(`  trust          ${ca}: curl --cacert ${ca} ${shared.publicCatalogUrl}/health`);
  say(`  operator commands on this cluster, in a shell that ran: set -a; . ${shown(operatorFile)}; set +a`);
  say("    printf '%s' 'a long admin password' | pnpm admin users add --email ops@example.com --group admin");
  say("    printf '%s' 'a long admin password' | pnpm --silent admin token --email ops@example.com");
  say('An instance or nginx that dies is restarted; Ctrl-C stops everything.');
}

await main();
