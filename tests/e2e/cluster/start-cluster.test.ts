// `pnpm start:cluster` itself (scripts/cluster/start-cluster.mts), as an operator runs it: an API
// instance killed with -9 is started again on its own port (the one in nginx's upstream) while nginx
// serves every request from the other, nginx killed with -9 is started again, and only a stop
// signal to the launcher stops the cluster.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawRequest, runEntry } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../support/postgres-database.ts';
import { report, settings } from '../support/settings.ts';
import { reservePort } from './support/ports.ts';

const script = fileURLToPath(new URL('../../../scripts/cluster/start-cluster.mts', import.meta.url));
/** Four instances, migrations and a small demo catalogue, on a machine ten times slower than this one. */
const CLUSTER_UP_MS = 600_000;

let dir: string;
let database: PostgresDatabase;
let launcher: ChildProcess;
let output = '';

/** Resolves once the launcher's output matches `pattern`; fails past `boundMs` or when it exits. */
async function outputMatches(pattern: RegExp, boundMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const match = output.match(pattern);
    if (match !== null) return match;
    if (launcher.exitCode !== null || Date.now() > deadline)
      throw new Error(`no ${pattern} in the launcher's output:\n${output.slice(-4_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pids of the launcher's catalog API instances (its children running the API's entry point). */
const apiInstancePids = () => launcherChildren('catalog-api/dist/main.js');

/** The launcher's children whose command line holds `command`. */
async function launcherChildren(command: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const line = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === launcher.pid && line.includes(command)) pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'e2e-start-cluster-'));
  database = await createPostgresDatabase();
  launcher = runEntry({
    entry: script,
    sourceConditions: false,
    env: {
      CLUSTER_DIR: dir,
      CLUSTER_CATALOG_PORT: String(await reservePort()),
      CLUSTER_AUTH_PORT: String(await reservePort()),
      DATABASE_URL: database.url,
      REDIS_URL: inject('redisUrl'),
      REDIS_KEY_PREFIX: `${inject('redisRunPrefix')}start-cluster-${process.pid}:`,
      NGINX_PATH: settings.nginx,
      DEMO_CATALOGUE_PRODUCTS: '20',
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_IP_PER_5MIN: '0',
    },
  });
  for (const stream of [launcher.stdout, launcher.stderr])
    stream?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  await outputMatches(/^cluster up:/m, CLUSTER_UP_MS);
});

afterAll(async () => {
  if (launcher !== undefined && launcher.exitCode === null && launcher.signalCode === null) {
    const exited = once(launcher, 'exit');
    launcher.kill('SIGINT');
    await exited;
  }
  await database?.drop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('pnpm start:cluster supervises its instances (README "Deployment")', () => {
  it('an API instance killed with -9 is restarted on its own port while not one GET through nginx fails, nginx killed with -9 is restarted, and a stop signal to the launcher then stops everything and exits 0', async () => {
    const [, publicUrl = '', ports = ''] =
      output.match(/catalog API +(https:\/\/\S+) +\(instances on 127\.0\.0\.1 ports ([\d, ]+)\)/) ?? [];
    const instancePorts = ports.split(', ').map(Number);
    const ca = await readFile(join(dir, 'tls', 'ca.pem'), 'utf8');
    const pidsBefore = await apiInstancePids();
    expect(pidsBefore).toHaveLength(2);

    process.kill(pidsBefore[0] as number, 'SIGKILL');
    const [, victim] = await outputMatches(/start:cluster: (api-\d) exited \(SIGKILL\)/, 60_000);
    // Sequential GETs for as long as it is down, bounded by count; a pause between them keeps the
    // count from running out before a loaded machine has restarted the instance.
    const backLine = new RegExp(`start:cluster: ${victim} is back`);
    const failed: Array<{ status: number; body: string }> = [];
    let sent = 0;
    while (!backLine.test(output) && sent < 1_500) {
      const reply = await rawRequest(`${publicUrl}/health`, { ca });
      sent += 1;
      if (reply.status !== 200) failed.push({ status: reply.status, body: reply.body });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await outputMatches(backLine, CLUSTER_UP_MS);
    report(`start:cluster: ${sent} GETs through nginx while ${victim} was down, ${failed.length} failed`);
    expect(failed).toEqual([]);
    expect(launcher.exitCode).toBeNull();

    // Both instances ready on the ports nginx was given at the start.
    for (const port of instancePorts) {
      const deadline = Date.now() + 120_000;
      const ready = () =>
        rawRequest(`http://127.0.0.1:${port}/ready`, { headers: { 'x-forwarded-proto': 'https' } });
      let reply = await ready();
      while (reply.status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        reply = await ready();
      }
      expect(reply.status, `instance on ${port}`).toBe(200);
    }
    const pidsAfter = await apiInstancePids();
    expect(pidsAfter).toHaveLength(2);
    expect(pidsAfter).not.toContain(pidsBefore[0]);

    // nginx too: its master killed with -9 (its workers with it, by the launcher) and started again.
    const [nginxPid] = await launcherChildren('nginx.conf');
    expect(nginxPid).toBeDefined();
    process.kill(nginxPid as number, 'SIGKILL');
    await outputMatches(/start:cluster: nginx exited \(SIGKILL\)/, 60_000);
    await outputMatches(/start:cluster: nginx is back/, CLUSTER_UP_MS);
    for (let i = 0; i < 10; i += 1)
      expect((await rawRequest(`${publicUrl}/health`, { ca })).status).toBe(200);
    expect(await launcherChildren('nginx.conf')).not.toContain(nginxPid);

    const exited = once(launcher, 'exit');
    launcher.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(output).toMatch(/^cluster stopped$/m);
    for (const pid of [...pidsBefore, ...pidsAfter])
      expect(existsSync(`/proc/${pid}`), `pid ${pid}`).toBe(false);
  });
});
