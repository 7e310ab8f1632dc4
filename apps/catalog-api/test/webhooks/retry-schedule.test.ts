// The retry schedule after a failed attempt: Standard Webhooks' delays, jitter, Retry-After, the end.
import { describe, expect, it } from 'vitest';
import {
  nextRetryDelayMs,
  parseRetryAfter,
  RETRY_SCHEDULE_MS,
} from '../../src/webhooks/delivery/retry-schedule.ts';

const HOUR = 3_600_000;
const attempts = RETRY_SCHEDULE_MS.map((_, index) => index + 1);

describe('webhook retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: more than 24 hours in all', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([5000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(RETRY_SCHEDULE_MS.reduce((sum, delay) => sum + delay, 0)).toBeGreaterThan(24 * HOUR);
  });

  it('jitters each delay within 20 % later, so that the total never falls under 24 hours', () => {
    const earliest = attempts.map((failed) => nextRetryDelayMs(failed, null, () => 0));
    const latest = attempts.map((failed) => nextRetryDelayMs(failed, null, () => 0.999_999));
    expect(earliest).toEqual(RETRY_SCHEDULE_MS);
    latest.forEach((delay, index) => {
      expect(delay).toBeLessThanOrEqual(Math.round((RETRY_SCHEDULE_MS[index] as number) * 1.2));
      expect(delay).toBeGreaterThan(RETRY_SCHEDULE_MS[index] as number);
    });
  });

  it('gives up (null) once the schedule is spent', () => {
    expect(nextRetryDelayMs(RETRY_SCHEDULE_MS.length + 1, null, () => 0)).toBeNull();
    expect(nextRetryDelayMs(RETRY_SCHEDULE_MS.length + 1, 60_000, () => 0)).toBeNull();
  });

  it('is never sooner than Retry-After, which is capped at 24 hours', () => {
    expect(nextRetryDelayMs(1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(1, 1000, () => 0)).toBe(5000);
    expect(nextRetryDelayMs(1, 90 * HOUR, () => 0.5)).toBe(24 * HOUR);
  });

  it('follows a custom schedule when given one', () => {
    const schedule = [100, 200];
    expect([1, 2, 3].map((failed) => nextRetryDelayMs(failed, null, () => 0, schedule))).toEqual([
      100,
      200,
      null,
    ]);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('reads delay-seconds and an HTTP date, and ignores what it cannot read', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
