import type { AdminAccount, AdminAccounts } from '../ports/admin-accounts.ts';
import type { LoginAttempts } from '../ports/login-attempts.ts';
import { verifyPassword } from './password-hash.ts';

export type AuthenticationResult =
  | { readonly ok: true; readonly account: AdminAccount }
  | { readonly ok: false; readonly reason: 'invalid-credentials' | 'locked' };

export const attemptKeyForEmail = (email: string) => `email:${email.trim().toLowerCase()}`;

/**
 * Checks an email and password. Unknown email, wrong password and disabled account are one outcome
 * (the page shows one generic message), each costing one scrypt derivation. After repeated failures
 * the email is locked for a while, whether or not it belongs to an account.
 */
export async function authenticateAdmin(input: {
  readonly accounts: AdminAccounts;
  readonly attempts: LoginAttempts;
  readonly email: string;
  readonly password: string;
  readonly now: Date;
}): Promise<AuthenticationResult> {
  const keys = [attemptKeyForEmail(input.email)];
  if (input.attempts.isLocked(keys, input.now)) return { ok: false, reason: 'locked' };
  const account = input.email.trim() === '' ? undefined : await input.accounts.findByEmail(input.email);
  const matches = await verifyPassword(input.password, account?.passwordHash);
  if (account === undefined || account.disabled || !matches) {
    input.attempts.recordFailure(keys, input.now);
    return { ok: false, reason: 'invalid-credentials' };
  }
  input.attempts.recordSuccess(keys);
  return { ok: true, account };
}
