const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delays after the first attempt, as the Standard Webhooks specification recommends: over 24 hours in
 * all, then the event is given up on.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

const JITTER = 0.2;
const RETRY_AFTER_CAP_MS = 24 * HOUR;

/**
 * Milliseconds until the attempt after `failedAttempts` failures (1 after the first), or null when the
 * schedule is spent. Up to 20 % later at random, so that endpoints failing together are not retried
 * together (never earlier: the schedule's 27 h are the promise); never sooner than the endpoint's
 * `Retry-After` (capped at 24 hours).
 */
export function nextRetryDelayMs(
  failedAttempts: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
  schedule: readonly number[] = RETRY_SCHEDULE_MS,
): number | null {
  const scheduled = schedule[failedAttempts - 1];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 + JITTER * random()));
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS));
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | null {
  if (header === undefined || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
