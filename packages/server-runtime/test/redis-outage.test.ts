import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { RedisOutage } from '../src/index.ts';

// Redis's answers are played by promises the test settles, in the order a loaded machine may
// deliver them: the rule is about the order of answers, not about Redis itself (the limiters' tests
// cut a real Redis).

interface Pending {
  readonly answer: () => void;
  readonly fail: () => void;
}

function outageUnderTest() {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line).msg as string) },
  );
  const clock = { now: 1_000_000 };
  const outage = new RedisOutage({
    logger,
    onFallback: () => {},
    messages: { down: 'down', back: 'back' },
    now: () => clock.now,
  });
  /** A call whose Redis answer waits for the test; resolves to who decided it. */
  const call = (): { pending: Pending; decided: Promise<string> } => {
    let pending: Pending | undefined;
    const shared = new Promise<string>((resolve, reject) => {
      pending = { answer: () => resolve('shared'), fail: () => reject(new Error('cut')) };
    });
    const decided = outage.decide(
      () => shared,
      async () => 'local',
    );
    return { pending: pending as Pending, decided };
  };
  return { lines, clock, call };
}

describe('RedisOutage: one warning when an outage starts, one line when Redis answers again', () => {
  it('keeps an outage when a call made before it began answers late, so one outage warns once', async () => {
    const { lines, clock, call } = outageUnderTest();
    const early = call();
    const failing = call();
    failing.pending.fail();
    expect(await failing.decided).toBe('local');
    early.pending.answer();
    expect(await early.decided).toBe('shared');
    expect(lines).toEqual(['down']);

    clock.now += 1000;
    const stillCut = call();
    stillCut.pending.fail();
    expect(await stillCut.decided).toBe('local');
    clock.now += 1000;
    const probe = call();
    probe.pending.answer();
    expect(await probe.decided).toBe('shared');
    expect(lines).toEqual(['down', 'back']);
  });

  it('starts no new outage when a probe that hung fails after a later probe found Redis back', async () => {
    const { lines, clock, call } = outageUnderTest();
    const first = call();
    first.pending.fail();
    await first.decided;
    clock.now += 1000;
    const hung = call();
    clock.now += 1000;
    const probe = call();
    probe.pending.answer();
    expect(await probe.decided).toBe('shared');
    hung.pending.fail();
    expect(await hung.decided).toBe('local');
    expect(lines).toEqual(['down', 'back']);

    const next = call();
    next.pending.fail();
    await next.decided;
    expect(lines).toEqual(['down', 'back', 'down']);
  });

  it('warns once when calls made at the same moment all fail', async () => {
    const { lines, call } = outageUnderTest();
    const calls = [call(), call(), call()];
    for (const { pending } of calls) pending.fail();
    expect(await Promise.all(calls.map(({ decided }) => decided))).toEqual(['local', 'local', 'local']);
    expect(lines).toEqual(['down']);
  });
});
