// Exit codes of catalog-sync, for cron and systemd (sysexits.h values where one fits).
export const EXIT = Object.freeze({
  /** The pass completed, the output is final and the checkpoint was committed (or, with --dry-run, would have been). */
  ok: 0,
  /** A failure that running again will not fix by itself (a 4xx other than 429, a bad output line, a write error). */
  failed: 1,
  /** Try again later: network failure, 429, 5xx, time-out, interrupted, or another run holds the lock. */
  retryable: 75,
  /**
   * Configuration error: bad arguments, missing secret or directory, http:// URL, a server certificate that
   * does not verify, refused credentials or scope (401/403), no node:sqlite.
   */
  configuration: 78,
});
