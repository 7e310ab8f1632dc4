import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { InsuredRequestLimiter } from '../../src/limits/insured-request-limiter.ts';
import { MemoryRequestLimiter } from '../../src/limits/memory/memory-request-limiter.ts';
import type { LimitVerdict, RequestLimiter } from '../../src/limits/request-limiter.ts';

/** A shared limiter that admits everything while `up`, and fails as an unreachable Redis does. */
class SwitchableShared implements RequestLimiter {
  up = true;
  calls = 0;

  async admit(): Promise<LimitVerdict> {
    this.calls += 1;
    if (!this.up) throw new Error("Stream isn't writeable and enableOfflineQueue options is false");
    return { admitted: true };
  }

  async close(): Promise<void> {}
}

function insured() {
  const clock = { now: 1_000_000 };
  const shared = new SwitchableShared();
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let fallbacks = 0;
  const limiter = new InsuredRequestLimiter({
    shared,
    insurance: new MemoryRequestLimiter(
      { rps: 0, burst: 0, ipPer5Min: 3, ipWindowMs: 300_000 },
      () => clock.now,
    ),
    logger,
    onFallback: () => {
      fallbacks += 1;
    },
    now: () => clock.now,
  });
  const admitted = async (count: number) => {
    let passed = 0;
    for (let i = 0; i < count; i += 1) if ((await limiter.admit('203.0.113.7')).admitted) passed += 1;
    return passed;
  };
  return { clock, shared, lines, limiter, admitted, fallbacks: () => fallbacks };
}

describe('InsuredRequestLimiter: the in-process limits while Redis cannot answer', () => {
  it('decides with the in-process limits, warns once per outage and counts every request decided alone', async () => {
    const { shared, lines, limiter, admitted, fallbacks } = insured();
    expect(await admitted(5)).toBe(5);
    shared.up = false;
    expect(await admitted(5)).toBe(3);
    expect(fallbacks()).toBe(5);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
    await limiter.close();
  });

  it('asks the shared limiter again once a second while it is out, and uses it from its first answer', async () => {
    const { clock, shared, lines, limiter, admitted } = insured();
    shared.up = false;
    await admitted(1);
    expect(shared.calls).toBe(1);
    clock.now += 999;
    await admitted(10);
    expect(shared.calls).toBe(1);
    clock.now += 1;
    await admitted(1);
    expect(shared.calls).toBe(2);
    shared.up = true;
    clock.now += 1000;
    expect(await admitted(10)).toBe(10);
    expect(shared.calls).toBe(12);
    expect(lines.map((line) => [line.level, line.msg.slice(0, 32)])).toEqual([
      [40, 'rate limits: Redis cannot answer'],
      [30, 'rate limits: Redis answers again'],
    ]);
    shared.up = false;
    await admitted(1);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(2);
    await limiter.close();
  });
});
