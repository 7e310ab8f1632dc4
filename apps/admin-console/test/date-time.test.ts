import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/domain/date-time.ts';

describe('dates with a time', () => {
  it('day, month, year and a 24-hour time, with the time zone named', () => {
    expect(formatDateTime('2026-11-28T14:05:00Z', 'UTC')).toBe('28 Nov 2026, 14:05 UTC');
    expect(formatDateTime('2026-11-28T14:05:00Z', 'Europe/Berlin')).toBe('28 Nov 2026, 15:05 CET');
  });

  it('a value that is no date is shown as it came', () => {
    expect(formatDateTime('not a date', 'UTC')).toBe('not a date');
  });
});
