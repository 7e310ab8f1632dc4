/**
 * Failed sign-ins, counted per key (the email tried, the caller's address) so that repeated
 * failures lock the key out for a while. Keys are counted whether or not the account exists, so a
 * lock-out reveals nothing about which emails are registered.
 */
export interface LoginAttempts {
  isLocked(keys: readonly string[], now: Date): boolean;
  recordFailure(keys: readonly string[], now: Date): void;
  recordSuccess(keys: readonly string[]): void;
}
