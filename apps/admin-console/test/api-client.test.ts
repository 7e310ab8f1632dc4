import { describe, expect, it } from 'vitest';
import {
  ApiError,
  formatWait,
  isRetryable,
  retryAfterSeconds,
  tooManyRequestsMessage,
} from '../src/api/client.ts';

describe('a 429 as the console shows it', () => {
  it('reads Retry-After as seconds or as an HTTP date, and nothing else', () => {
    const now = Date.parse('2026-11-28T15:00:00Z');
    expect(retryAfterSeconds('37', now)).toBe(37);
    expect(retryAfterSeconds(' 0 ', now)).toBe(0);
    expect(retryAfterSeconds('Sat, 28 Nov 2026 15:04:37 GMT', now)).toBe(277);
    expect(retryAfterSeconds('Sat, 28 Nov 2026 14:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });

  it('says the wait in minutes and seconds', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(37)).toBe('37 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(277)).toBe('4 minutes 37 seconds');
  });

  it('names the wait and that the per-address budget is shared with integrations', () => {
    expect(tooManyRequestsMessage(277)).toContain('Wait 4 minutes 37 seconds, then try again.');
    expect(tooManyRequestsMessage(null)).toContain('Wait a moment, then try again.');
    expect(tooManyRequestsMessage(5)).toContain('integrations running on the same address share');
  });
});

describe('what "Try again" is offered for', () => {
  it('no answer, 429 and 5xx may succeed when sent again; a refusal of the request itself does not', () => {
    expect(isRetryable(new ApiError(0, 'timed out'))).toBe(true);
    expect(isRetryable(new ApiError(429, 'slow down'))).toBe(true);
    expect(isRetryable(new ApiError(503, 'unavailable'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 412, 428])
      expect(isRetryable(new ApiError(status, 'refused'))).toBe(false);
    expect(isRetryable(new Error('not from the API'))).toBe(false);
  });
});
