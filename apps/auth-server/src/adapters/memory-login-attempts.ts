import type { LoginAttempts } from '../ports/login-attempts.ts';

export interface LoginAttemptPolicy {
  /** Failures within the window that lock a key. */
  readonly maxFailures: number;
  readonly windowMs: number;
  /** Keys tracked at most; the oldest are forgotten first, so memory stays bounded. */
  readonly maxKeys: number;
}

export const DEFAULT_LOGIN_ATTEMPT_POLICY: LoginAttemptPolicy = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  maxKeys: 10_000,
};

/**
 * Failure counts held in this process. The store has no table for them, so a restart clears
 * lock-outs; one token server per database is the embedded default.
 */
export class MemoryLoginAttempts implements LoginAttempts {
  readonly #policy: LoginAttemptPolicy;
  readonly #failures = new Map<string, number[]>();

  constructor(policy: LoginAttemptPolicy = DEFAULT_LOGIN_ATTEMPT_POLICY) {
    this.#policy = policy;
  }

  #recent(key: string, now: Date): number[] {
    const since = now.getTime() - this.#policy.windowMs;
    const times = (this.#failures.get(key) ?? []).filter((time) => time > since);
    if (times.length === 0) this.#failures.delete(key);
    else this.#failures.set(key, times);
    return times;
  }

  isLocked(keys: readonly string[], now: Date): boolean {
    return keys.some((key) => this.#recent(key, now).length >= this.#policy.maxFailures);
  }

  recordFailure(keys: readonly string[], now: Date): void {
    for (const key of keys) {
      const times = this.#recent(key, now);
      this.#failures.delete(key);
      this.#failures.set(key, [...times, now.getTime()]);
    }
    while (this.#failures.size > this.#policy.maxKeys) {
      const oldest = this.#failures.keys().next().value;
      if (oldest === undefined) break;
      this.#failures.delete(oldest);
    }
  }

  recordSuccess(keys: readonly string[]): void {
    for (const key of keys) this.#failures.delete(key);
  }
}
