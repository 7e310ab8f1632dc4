import { describe, expect, it } from 'vitest';
import { WriteLockShare } from '../../src/adapters/sqlite/write-lock-share.ts';

describe("the webhook outbox's share of the SQLite write lock", () => {
  it('while others write, waits after a transaction that held the lock for t for t × (1 / share − 1): it holds the lock at most its share of the time', () => {
    const share = new WriteLockShare(0.2);
    share.held(1010, 10);
    expect(share.restBefore(1010, true)).toBe(40);
    expect(share.restBefore(1030, true)).toBe(20);
    expect(share.restBefore(1050, true)).toBe(0);
    share.held(2001, 1);
    expect(share.restBefore(2001, true)).toBe(4);
  });

  it('when nobody else committed since its last transaction, waits as long as it took, so that a writer yet to commit finds the lock free half the time', () => {
    const share = new WriteLockShare(0.2);
    share.held(1100, 100);
    expect(share.restBefore(1100, false)).toBe(100);
    expect(share.restBefore(1150, false)).toBe(50);
    expect(share.restBefore(1200, false)).toBe(0);
  });

  it('rests two seconds at most, however long its transaction held the lock', () => {
    const share = new WriteLockShare(0.2);
    share.held(15_000, 15_000);
    expect(share.restBefore(15_000, true)).toBe(2000);
    share.held(35_000, 15_000);
    expect(share.restBefore(38_000, false)).toBe(0);
    share.held(55_000, 15_000);
    expect(share.restBefore(55_000, false)).toBe(2000);
  });

  it('a transaction that took no lock is followed by no rest', () => {
    const share = new WriteLockShare(0.2);
    share.held(1000, 0);
    expect(share.restBefore(1000, true)).toBe(0);
    expect(share.restBefore(1000, false)).toBe(0);
  });

  it('a share of one never waits; a share outside (0, 1] is refused', () => {
    const whole = new WriteLockShare(1);
    whole.held(500, 500);
    expect(whole.restBefore(500, true)).toBe(0);
    expect(whole.restBefore(500, false)).toBe(0);
    for (const wrong of [0, -0.5, 1.5, Number.NaN])
      expect(() => new WriteLockShare(wrong)).toThrow(RangeError);
  });
});
