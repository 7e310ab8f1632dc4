/** One sign-in attempt: the email tried and the caller's address. */
export interface LoginAttempt {
  readonly email: string;
  readonly ip: string;
}

/** The lock-outs one failure engaged: each is reported by the one failure that reached its limit. */
export interface EngagedLockOuts {
  /** The email is locked out from now until its window ends. */
  readonly email: boolean;
  /** The source address is locked out from now until its window ends. */
  readonly ip: boolean;
}

/**
 * Failed sign-ins, counted per email and per source address, so that repeated failures lock either
 * out for a while. Emails are counted whether or not the account exists, so a lock-out reveals
 * nothing about which emails are registered.
 */
export interface LoginAttempts {
  /** Seconds until this attempt may be made, or undefined when it may be made now. */
  lockedFor(attempt: LoginAttempt): Promise<number | undefined>;
  recordFailure(attempt: LoginAttempt): Promise<EngagedLockOuts>;
  /** Clears the email's failures; the address keeps its count (it may have tried other emails). */
  recordSuccess(attempt: LoginAttempt): Promise<void>;
}
