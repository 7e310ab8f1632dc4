import { type ConcurrencyGate, GateFullError } from '../limits/concurrency-gate.ts';
import type { AdminAccount, AdminAccounts } from '../ports/admin-accounts.ts';
import type { LoginAttempts } from '../ports/login-attempts.ts';
import { verifyPassword } from './password-hash.ts';

export type AuthenticationResult =
  | { readonly ok: true; readonly account: AdminAccount }
  | { readonly ok: false; readonly reason: 'invalid-credentials' }
  | { readonly ok: false; readonly reason: 'locked' | 'busy'; readonly retryAfterSeconds: number };

/** When every password-check slot and queue place is taken: scrypt calls take tens of ms each. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Checks an email and password. Unknown email, wrong password and disabled account are one outcome
 * (the page shows one generic message), each costing one scrypt derivation. A locked email or
 * address costs none. Derivations go through `passwordChecks`, so a flood of logins waits or is
 * refused instead of filling libuv's thread pool.
 */
export async function authenticateAdmin(input: {
  readonly accounts: AdminAccounts;
  readonly attempts: LoginAttempts;
  readonly passwordChecks: ConcurrencyGate;
  readonly email: string;
  readonly password: string;
  readonly ip: string;
}): Promise<AuthenticationResult> {
  const attempt = { email: input.email, ip: input.ip };
  const lockedFor = await input.attempts.lockedFor(attempt);
  if (lockedFor !== undefined) return { ok: false, reason: 'locked', retryAfterSeconds: lockedFor };
  let account: AdminAccount | undefined;
  let matches: boolean;
  try {
    ({ account, matches } = await input.passwordChecks.run(async () => {
      const found = input.email.trim() === '' ? undefined : await input.accounts.findByEmail(input.email);
      return { account: found, matches: await verifyPassword(input.password, found?.passwordHash) };
    }));
  } catch (error) {
    if (error instanceof GateFullError) {
      return { ok: false, reason: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
    }
    throw error;
  }
  if (account === undefined || account.disabled || !matches) {
    await input.attempts.recordFailure(attempt);
    return { ok: false, reason: 'invalid-credentials' };
  }
  await input.attempts.recordSuccess(attempt);
  return { ok: true, account };
}
