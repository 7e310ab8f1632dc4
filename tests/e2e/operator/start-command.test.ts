import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../support/postgres-database.ts';
import { settings } from '../support/settings.ts';

// `pnpm start` runs both built servers through scripts/start-services.mjs (after a build this suite's
// task has done already). Whatever stops it, both servers drain (/ready 503 while they still serve)
// and exit, and nothing is left running once it has exited.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const LAUNCHER = join(ROOT, 'scripts/start-services.mjs');
/** Bounds against a hang, sized for a machine ten times slower than a busy two-core one. */
const START_MS = 600_000;
const STOP_MS = 300_000;
/** Long enough to see /ready answer 503 on a slow machine; the test waits for it to end. */
const DRAIN_MS = 20_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, boundMs: number) {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await sleep(100);
  }
}

/** Whether a process (or, negative, a process group) still exists. */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

interface Started {
  /** The process group's leader: the launcher, or a shell standing for `pnpm` above it. */
  readonly leader: ChildProcess;
  readonly output: () => string;
  readonly serverPids: readonly number[];
  readonly ready: () => Promise<Array<{ status: number; body: string }>>;
  readonly health: () => Promise<number[]>;
}

let dataDir: string | undefined;
let database: PostgresDatabase | undefined;
let groups: number[] = [];
afterEach(async () => {
  for (const group of groups) if (exists(-group)) process.kill(-group, 'SIGKILL');
  groups = [];
  await database?.drop();
  database = undefined;
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** The launcher in a process group of its own, as a terminal runs a command; `underShell` puts a shell above it. */
async function launch(underShell: boolean, ports?: { api: number; auth: number }) {
  dataDir = mkdtempSync(join(tmpdir(), 'start-command-'));
  if (settings.engine === 'postgres') database = await createPostgresDatabase();
  const { api, auth } = ports ?? { api: await freePort(), auth: await freePort() };
  // biome-ignore lint/style/noProcessEnv: the command runs as an operator's shell would, with its whole environment.
  const { DATABASE_URL: _shells, ...shell } = process.env;
  const env = {
    ...shell,
    DATA_DIR: dataDir,
    CATALOG_API_PORT: String(api),
    AUTH_SERVER_PORT: String(auth),
    METRICS_PORT: '0',
    AUTH_METRICS_PORT: '0',
    DEMO_CATALOGUE_PRODUCTS: '10',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    LOG_LEVEL: 'info',
    ...(database === undefined ? {} : { DATABASE_URL: database.url }),
  };
  const command = underShell ? 'sh' : process.execPath;
  const args = underShell
    ? ['-c', `"${process.execPath}" "${LAUNCHER}"; echo "launcher exited"`]
    : [LAUNCHER];
  const leader = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.push(leader.pid as number);
  let output = '';
  for (const stream of [leader.stdout, leader.stderr])
    stream?.on('data', (chunk: Buffer) => (output += chunk));
  const serverPids = () => [...output.matchAll(/started \(pid (\d+)\)/g)].map((match) => Number(match[1]));
  return {
    leader,
    output: () => output,
    serverPids,
    urls: [`https://localhost:${api}`, `https://localhost:${auth}`],
  };
}

async function startServices(underShell: boolean): Promise<Started> {
  const launched = await launch(underShell);
  const { output, urls } = launched;
  await until(() => output().split('"msg":"listening"').length === 3, 'both servers to listen', START_MS);
  const serverPids = launched.serverPids();
  groups.push(...serverPids);
  const ca = readFileSync(join(dataDir as string, 'tls', 'ca.pem'), 'utf8');
  return {
    leader: launched.leader,
    output,
    serverPids,
    ready: () => Promise.all(urls.map((url) => rawRequest(`${url}/ready`, { ca }))),
    health: () => Promise.all(urls.map(async (url) => (await rawRequest(`${url}/health`, { ca })).status)),
  };
}

async function expectDrainThenNothingLeft(started: Started, exited: Promise<number | null>) {
  await until(
    async () => (await started.ready()).every((reply) => reply.status === 503),
    'both /ready to answer 503',
    DRAIN_MS,
  );
  for (const reply of await started.ready()) {
    expect(JSON.parse(reply.body)).toMatchObject({ status: 'not-ready', checks: { shutdown: 'draining' } });
  }
  expect(await started.health()).toEqual([200, 200]);
  expect(await exited).toBe(0);
  for (const pid of started.serverPids) {
    expect(exists(pid)).toBe(false);
    expect(exists(-pid)).toBe(false);
  }
  expect(exists(-(started.leader.pid as number))).toBe(false);
  expect(started.output()).not.toContain('second signal');
  expect(started.output().split('"msg":"stopped"').length).toBe(3);
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('pnpm start stops both servers, drained, and leaves nothing running', () => {
  it('on Ctrl-C (SIGINT to its process group)', async () => {
    const started = await startServices(false);
    // Listening comes before ready: the API is ready once it holds the token server's signing keys.
    await until(
      async () => (await started.ready()).every((reply) => reply.status === 200),
      'both /ready to answer 200',
      START_MS,
    );
    const exited = exitOf(started.leader);
    process.kill(-(started.leader.pid as number), 'SIGINT');
    await expectDrainThenNothingLeft(started, exited);
  });

  it('on SIGTERM to the launcher alone', async () => {
    const started = await startServices(false);
    const exited = exitOf(started.leader);
    started.leader.kill('SIGTERM');
    await expectDrainThenNothingLeft(started, exited);
  });

  it('when the command above it is gone (pnpm, told SIGTERM, kills its shell and exits without passing it on)', async () => {
    const started = await startServices(true);
    const launcherPid = Number(/this process: pid (\d+)/.exec(started.output())?.[1]);
    started.leader.kill('SIGKILL');
    const gone = until(() => !exists(launcherPid), 'the launcher to exit', STOP_MS).then(() => 0);
    await expectDrainThenNothingLeft(started, gone);
    expect(started.output()).toContain('is gone');
  });

  it('when one server cannot start: the other is stopped too and the command fails', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const auth = (taken.address() as { port: number }).port;
      const launched = await launch(false, { api: await freePort(), auth });
      const code = await exitOf(launched.leader);
      groups.push(...launched.serverPids());
      expect(code).toBe(1);
      expect(launched.output()).toContain(`port ${auth} on 127.0.0.1 is already in use`);
      for (const pid of launched.serverPids()) {
        expect(exists(pid)).toBe(false);
        expect(exists(-pid)).toBe(false);
      }
    } finally {
      taken.close();
    }
  });
});
