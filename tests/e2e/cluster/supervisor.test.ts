// The supervisor that `pnpm start:cluster` and every cluster here run each instance under
// (scripts/cluster/supervisor.mts), on real child processes: a process that dies is started again
// after a back-off that grows, is capped, and starts over once a process stayed up; only stop() ends it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RestartPolicy,
  restartDelay,
  type SupervisorEvent,
  supervise,
} from '../../../scripts/cluster/supervisor.mts';

// Short delays: what is checked is the delay the supervisor chose, never how long anything took.
const POLICY: RestartPolicy = { initialDelayMs: 10, factor: 2, maxDelayMs: 40, stableAfterMs: 60_000 };
/** Announces that it serves, then runs until killed. */
const SERVES = "process.stdout.write('up\\n'); setInterval(() => {}, 1000);";
/** Exits before it serves, as an instance that cannot start does. */
const FAILS = 'process.exit(1);';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Resolves once the child has announced that it serves; rejects when it exits first. */
function startChild(script: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code, signal) => reject(new Error(`exited (${code ?? signal}) before it served`)));
  });
}

const exited = async (child: ChildProcess) => {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  return String(child.signalCode ?? child.exitCode);
};

async function killHard(child: ChildProcess): Promise<void> {
  const gone = exited(child);
  child.kill('SIGKILL');
  await gone;
}

/** Supervises children running `scripts[n]` on the n-th start (the last one for every later start). */
function superviseScripts(scripts: readonly string[], options: { clock?: () => number } = {}) {
  const events: SupervisorEvent[] = [];
  let started = 0;
  const supervised = supervise({
    name: 'child',
    start: () => startChild(scripts[Math.min(started++, scripts.length - 1)] as string),
    exited,
    stopProcess: async (child) => {
      child.kill('SIGTERM');
      await exited(child);
    },
    policy: POLICY,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { supervised, events };
}

describe('instance supervision (README "Deployment": an instance that dies is restarted)', () => {
  it('the delay before each restart in a row grows by the factor from the initial delay and is capped', () => {
    const policy = { initialDelayMs: 500, factor: 2, maxDelayMs: 3_000, stableAfterMs: 60_000 };
    expect([1, 2, 3, 4, 5, 6].map((restarts) => restartDelay(policy, restarts))).toEqual([
      500, 1_000, 2_000, 3_000, 3_000, 3_000,
    ]);
  });

  it('a process killed with -9 is started again, and stop() stops the one running with no further start', async () => {
    const { supervised: pending, events } = superviseScripts([SERVES]);
    const supervised = await pending;
    const first = supervised.current();
    await killHard(first);
    const second = await supervised.startedAfter(1);
    expect(second.pid).not.toBe(first.pid);
    expect(second.exitCode).toBeNull();
    expect(events.map((event) => event.kind)).toEqual(['exited', 'restarted']);
    expect(events[0]).toMatchObject({ how: 'SIGKILL', delayMs: POLICY.initialDelayMs });

    await supervised.stop();
    expect(second.signalCode).toBe('SIGTERM');
    expect(supervised.starts()).toBe(2);
    expect(supervised.current()).toBe(second);
  });

  it('a restart that fails is tried again after a longer delay, up to the cap, until a process serves', async () => {
    const { supervised: pending, events } = superviseScripts([SERVES, FAILS, FAILS, FAILS, SERVES]);
    const supervised = await pending;
    await killHard(supervised.current());
    const back = await supervised.startedAfter(1);
    expect(events.map((event) => [event.kind, 'delayMs' in event ? event.delayMs : undefined])).toEqual([
      ['exited', 10],
      ['start-failed', 20],
      ['start-failed', 40],
      ['start-failed', 40],
      ['restarted', undefined],
    ]);
    expect(back.exitCode).toBeNull();
    await supervised.stop();
  });

  it('a process that stayed up stableAfterMs before it died is restarted after the initial delay again', async () => {
    let clock = 0;
    const { supervised: pending, events } = superviseScripts([SERVES], { clock: () => clock });
    const supervised = await pending;
    await killHard(supervised.current());
    await supervised.startedAfter(1);
    await killHard(supervised.current());
    await supervised.startedAfter(2);
    clock += POLICY.stableAfterMs;
    await killHard(supervised.current());
    await supervised.startedAfter(3);
    const delays = events.filter((event) => event.kind === 'exited').map((event) => event.delayMs);
    expect(delays).toEqual([10, 20, 10]);
    await supervised.stop();
  });

  it('stop() during the wait before a restart starts nothing more', async () => {
    const slow = { ...POLICY, initialDelayMs: 60_000, maxDelayMs: 60_000 };
    const events: SupervisorEvent[] = [];
    let starts = 0;
    const supervised = await supervise({
      name: 'child',
      start: () => {
        starts += 1;
        return startChild(SERVES);
      },
      exited,
      stopProcess: async (child) => {
        await exited(child);
      },
      policy: slow,
      onEvent: (event) => events.push(event),
    });
    await killHard(supervised.current());
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await supervised.stop();
    expect(starts).toBe(1);
    await expect(supervised.startedAfter(1)).rejects.toThrow(/no longer supervised/);
  });
});
