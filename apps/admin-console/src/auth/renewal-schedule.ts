// When to renew the ID token silently. Measured from when the console received the token, so that a
// browser whose clock is off (or a page whose clock is faked) still renews before the token's end.

/** The share of a token's life after which it is renewed: the rest leaves time for a slow renewal. */
export const RENEW_AFTER_SHARE = 0.8;

/**
 * Milliseconds from receipt until the renewal: 80% of the token's lifetime (exp − iat), or of what
 * remains by this browser's clock when that is less (a clock ahead of the token server's).
 */
export function renewalDelayMs(input: {
  readonly lifetimeMs: number | null;
  readonly remainingMs: number;
}): number {
  const life = input.lifetimeMs === null ? input.remainingMs : Math.min(input.lifetimeMs, input.remainingMs);
  return Math.max(0, Math.floor(life * RENEW_AFTER_SHARE));
}
