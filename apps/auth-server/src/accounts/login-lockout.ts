import { canonicalEmail } from '@catalog/store';
import type { EngagedLockOuts, LoginAttempt, LoginAttempts } from '../ports/login-attempts.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';

/**
 * An email is counted under the form the store looks accounts up by: every spelling that finds an
 * account adds to, and is stopped by, that account's one count.
 */
const emailKey = canonicalEmail;

/**
 * Lock-out by failure counts: an email after LOGIN_FAILURES_EMAIL_PER_15MIN failures, an address
 * after LOGIN_FAILURES_IP_PER_15MIN, each for the rest of its window. The per-address count is what
 * bounds how many emails one caller can make the server remember; a locked email is never
 * forgotten before its window ends, whatever happens to others.
 */
export class LoginLockout implements LoginAttempts {
  readonly #perEmail: RateLimiter;
  readonly #perIp: RateLimiter;

  constructor(limiters: { readonly perEmail: RateLimiter; readonly perIp: RateLimiter }) {
    this.#perEmail = limiters.perEmail;
    this.#perIp = limiters.perIp;
  }

  async lockedFor(attempt: LoginAttempt): Promise<number | undefined> {
    const [byIp, byEmail] = await Promise.all([
      this.#perIp.check(attempt.ip),
      this.#perEmail.check(emailKey(attempt.email)),
    ]);
    const waits = [byIp, byEmail].flatMap((admission) =>
      admission.allowed ? [] : [admission.retryAfterSeconds],
    );
    return waits.length === 0 ? undefined : Math.max(...waits);
  }

  async recordFailure(attempt: LoginAttempt): Promise<EngagedLockOuts> {
    const [ip, email] = await Promise.all([
      this.#perIp.record(attempt.ip),
      this.#perEmail.record(emailKey(attempt.email)),
    ]);
    return { email, ip };
  }

  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    await this.#perEmail.reset(emailKey(attempt.email));
  }
}
