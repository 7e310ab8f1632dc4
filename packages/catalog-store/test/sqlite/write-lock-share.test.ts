import { describe, expect, it } from 'vitest';
import { WriteLockShare } from '../../src/adapters/sqlite/write-lock-share.ts';

describe("the webhook outbox's share of the SQLite write lock", () => {
  it('while others write, waits after a transaction of t for t × (1 / share − 1): it holds the lock at most its share of the time', () => {
    const share = new WriteLockShare(0.2);
    share.held(1000, 1010);
    expect(share.restBefore(1010, true)).toBe(40);
    expect(share.restBefore(1030, true)).toBe(20);
    expect(share.restBefore(1050, true)).toBe(0);
    share.held(2000, 2001);
    expect(share.restBefore(2001, true)).toBe(4);
  });

  it('alone on the file, never waits', () => {
    const share = new WriteLockShare(0.2);
    expect(share.restBefore(0, true)).toBe(0);
    share.held(1000, 1100);
    expect(share.restBefore(1100, false)).toBe(0);
  });

  it('a share of one never waits; a share outside (0, 1] is refused', () => {
    const whole = new WriteLockShare(1);
    whole.held(0, 500);
    expect(whole.restBefore(500, true)).toBe(0);
    for (const wrong of [0, -0.5, 1.5, Number.NaN])
      expect(() => new WriteLockShare(wrong)).toThrow(RangeError);
  });
});
