import { describe, expect, it } from 'vitest';
import { renewalDelayMs } from '../src/auth/renewal-schedule.ts';

const HOUR = 3_600_000;

describe('the ID token is renewed before it expires', () => {
  it('renews once 80% of its lifetime has passed since it was received', () => {
    expect(renewalDelayMs({ lifetimeMs: HOUR, remainingMs: HOUR })).toBe(0.8 * HOUR);
  });

  it('renews sooner when this browser’s clock says less of the token remains than its lifetime', () => {
    expect(renewalDelayMs({ lifetimeMs: HOUR, remainingMs: HOUR / 6 })).toBe((0.8 * HOUR) / 6);
  });

  it('a clock behind the token server’s does not put the renewal past the token’s lifetime', () => {
    expect(renewalDelayMs({ lifetimeMs: HOUR, remainingMs: 3 * HOUR })).toBe(0.8 * HOUR);
  });

  it('without an issue time, renews after 80% of what remains', () => {
    expect(renewalDelayMs({ lifetimeMs: null, remainingMs: 10_000 })).toBe(8_000);
  });

  it('a token already expired by this browser’s clock is renewed at once, never after a negative delay', () => {
    expect(renewalDelayMs({ lifetimeMs: HOUR, remainingMs: -5_000 })).toBe(0);
  });
});
