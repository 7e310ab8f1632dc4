// Exit codes of catalog-sync, for cron and systemd (sysexits.h values where one fits).
export const EXIT = Object.freeze({
  /** The pass completed and the checkpoint was committed (or, with --dry-run, would have been). */
  ok: 0,
  /** A failure that running again will not fix by itself (a 4xx other than 429, a downstream write error). */
  failed: 1,
  /** Try again later: network failure, 429, 5xx, time-out, interrupted, or another run holds the lock. */
  retryable: 75,
  /** Configuration error: bad arguments, missing secret, http:// URL, refused credentials or scope (401/403). */
  configuration: 78,
});
