import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, type SpawnedService, spawnService } from '../src/testing/spawn-service.ts';

// Ctrl-C (SIGINT) stops a server as SIGTERM does: /ready turns 503 at once, every request is still
// served for SHUTDOWN_DRAIN_MS, then it closes and exits 0.
const entry = fileURLToPath(new URL('./fixtures/held-request-service.ts', import.meta.url));
/** A bound against a hang, not a speed requirement. */
const WAIT_MS = 120_000;

let service: SpawnedService | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  if (service?.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  service = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function start(drainMs: number): Promise<{ running: SpawnedService; base: string }> {
  dataDir = await mkdtemp(join(tmpdir(), 'server-runtime-stop-'));
  // Plain HTTP behind a (loopback) proxy: the signal handling is the same as over TLS.
  const env = {
    DATA_DIR: dataDir,
    FIXTURE_PORT: '0',
    TRUST_PROXY: 'true',
    SHUTDOWN_DRAIN_MS: String(drainMs),
  };
  service = await spawnService({ entry, env });
  return { running: service, base: `http://127.0.0.1:${service.port}` };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await sleep(20);
  }
}

const exited = (running: SpawnedService) =>
  new Promise<number | null>((resolve) => {
    if (running.child.exitCode !== null || running.child.signalCode !== null) resolve(running.child.exitCode);
    else running.child.once('exit', (code) => resolve(code));
  });

describe('a server drains on SIGINT as on SIGTERM', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s: /ready answers 503 while the request in flight and new ones are still served',
    async (signal) => {
      const { running, base } = await start(600_000);
      expect((await rawRequest(`${base}/ready`)).status).toBe(200);
      const held = rawRequest(`${base}/held`);
      await until(() => running.output().includes('held request arrived'), 'the held request');
      running.child.kill(signal);

      const reply = await held;
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ answered: 'while draining' });
      const ready = await rawRequest(`${base}/ready`);
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toEqual({ status: 'not-ready', checks: { shutdown: 'draining' } });
      expect((await rawRequest(`${base}/other`)).status).toBe(200);
      // The log line is written before /ready turns, but reaches this process through a pipe that a
      // loaded machine may deliver later than the answers: wait for it to arrive.
      const draining = `"signal":"${signal}","drainMs":600000,"msg":"draining: /ready answers 503"`;
      await until(() => running.output().includes(draining), 'the draining log line');

      // An operator who presses Ctrl-C twice means it: the second signal ends the drain at once.
      const code = exited(running);
      running.child.kill(signal);
      expect(await code).toBe(1);
      await until(
        () => running.output().includes('second signal while stopping; exiting now'),
        "the second signal's log line",
      );
    },
  );

  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s: closes once SHUTDOWN_DRAIN_MS is over, the request in flight answered, and exits 0',
    async (signal) => {
      const { running, base } = await start(200);
      const held = rawRequest(`${base}/held`);
      await until(() => running.output().includes('held request arrived'), 'the held request');
      const code = exited(running);
      running.child.kill(signal);
      expect((await held).status).toBe(200);
      expect(await code).toBe(0);
      // 'exit' may come before the last of its output through the pipe.
      await until(() => running.output().includes('"msg":"stopped"'), 'the stopped log line');
      const output = running.output();
      expect(output.indexOf('draining: /ready answers 503')).toBeGreaterThan(-1);
      expect(output.indexOf('"msg":"stopped"')).toBeGreaterThan(output.indexOf('draining'));
    },
  );
});
