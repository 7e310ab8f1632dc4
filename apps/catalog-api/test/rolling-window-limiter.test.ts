import { describe, expect, it } from 'vitest';
import { RollingWindowLimiter } from '../src/limits/memory/rolling-window-limiter.ts';

const MINUTE = 60_000;

function limiterAt(start: number, limit = 1000) {
  const clock = { now: start };
  const limiter = new RollingWindowLimiter({ limit, windowMs: 5 * MINUTE, now: () => clock.now });
  // What the memory adapter does with an address: count a request only when it is admitted.
  const take = (key: string) => {
    const admission = limiter.check(key);
    if (admission.allowed) limiter.record(key);
    return admission;
  };
  const send = (count: number) => {
    let accepted = 0;
    for (let i = 0; i < count; i += 1) if (take('203.0.113.7').allowed) accepted += 1;
    return accepted;
  };
  return { clock, take, send };
}

describe('spec 8: per-IP protection over any rolling 5-minute window', () => {
  it('accepts the limit, then refuses until the oldest requests leave the window', () => {
    const { clock, take, send } = limiterAt(0);
    expect(send(1000)).toBe(1000);
    expect(send(5)).toBe(0);
    clock.now = 4 * MINUTE + 45_000;
    expect(send(1)).toBe(0);
    const refusal = take('203.0.113.7');
    expect(refusal.allowed).toBe(false);
    if (!refusal.allowed) expect(refusal.retryAfterMs).toBe(15_000);
    clock.now = 5 * MINUTE;
    expect(send(1000)).toBe(1000);
  });

  it('does not let a caller send twice the limit across the boundary of a fixed window', () => {
    // 600 just before and 600 just after minute 5 all lie within one rolling 5 minutes.
    const { clock, send } = limiterAt(0);
    clock.now = 4 * MINUTE + 50_000;
    expect(send(600)).toBe(600);
    clock.now = 5 * MINUTE + 10_000;
    expect(send(600)).toBe(400);
  });

  it('counts each source address on its own', () => {
    const { take, send } = limiterAt(0, 3);
    expect(send(3)).toBe(3);
    expect(take('198.51.100.1').allowed).toBe(true);
  });
});
