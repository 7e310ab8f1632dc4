import { describe, expect, it } from 'vitest';
import { ConcurrencyGate, GateFullError } from '../src/limits/concurrency-gate.ts';

/** A task that runs until `finish` is called, recording how many tasks ran at once. */
function controllable(state: { running: number; peak: number }) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const task = async () => {
    state.running += 1;
    state.peak = Math.max(state.peak, state.running);
    await done;
    state.running -= 1;
    return 'done';
  };
  return { task, finish: () => finish() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('password-check gate', () => {
  it('runs at most `concurrency` tasks, queues at most `queue`, refuses the rest with GateFullError', async () => {
    const gate = new ConcurrencyGate({ concurrency: 2, queue: 1 });
    const state = { running: 0, peak: 0 };
    const tasks = Array.from({ length: 4 }, () => controllable(state));
    const results = tasks.map(({ task }) => gate.run(task).catch((error: unknown) => error));
    await flush();
    expect(state.running).toBe(2);
    await expect(results[3]).resolves.toBeInstanceOf(GateFullError);

    tasks[0]?.finish();
    await flush();
    expect(state.running).toBe(2); // the queued task took the freed slot
    for (const { finish } of tasks) finish();
    expect(await Promise.all(results.slice(0, 3))).toEqual(['done', 'done', 'done']);
    expect(state.peak).toBe(2);

    // Once idle, the gate admits again.
    const after = controllable(state);
    const result = gate.run(after.task);
    after.finish();
    await expect(result).resolves.toBe('done');
  });
});
