import { type AuditTrail, verifyPassword } from '@catalog/identity';
import { canonicalEmail } from '@catalog/store';
import { type ConcurrencyGate, GateFullError } from '../limits/concurrency-gate.ts';
import type { AdminAccount, AdminAccounts } from '../ports/admin-accounts.ts';
import type { LoginAttempts } from '../ports/login-attempts.ts';
import {
  lockOutEvents,
  type SignInFailureReason,
  type SignInRequest,
  signInEvent,
  signInFailureEvent,
} from './sign-in-events.ts';

export type AuthenticationResult =
  | { readonly ok: true; readonly account: AdminAccount }
  | { readonly ok: false; readonly reason: 'invalid-credentials' }
  | { readonly ok: false; readonly reason: 'locked' | 'busy'; readonly retryAfterSeconds: number };

/** When every password-check slot and queue place is taken: scrypt calls take tens of ms each. */
const BUSY_RETRY_AFTER_SECONDS = 1;

const findAccount = (accounts: AdminAccounts, email: string) =>
  canonicalEmail(email) === '' ? Promise.resolve(undefined) : accounts.findByEmail(email);

/** Why a checked sign-in failed, for the trail only: the page shows one message for all three. */
function failureReason(account: AdminAccount | undefined): SignInFailureReason {
  if (account === undefined) return 'unknown-email';
  return account.disabled ? 'disabled' : 'wrong-password';
}

/**
 * Checks an email and password. Unknown email, wrong password and disabled account are one outcome
 * (the page shows one generic message), each costing one scrypt derivation. A locked email or
 * address costs none. Derivations go through `passwordChecks`, so a flood of logins waits or is
 * refused instead of filling libuv's thread pool. Every outcome but "busy" (nothing was checked) is
 * recorded in the audit trail before the caller hears it, with the lock-out a failure engaged; a
 * sign-in that cannot be recorded fails.
 */
export async function authenticateAdmin(input: {
  readonly accounts: AdminAccounts;
  readonly attempts: LoginAttempts;
  readonly passwordChecks: ConcurrencyGate;
  readonly trail: AuditTrail;
  readonly request: SignInRequest;
  readonly email: string;
  readonly password: string;
}): Promise<AuthenticationResult> {
  const { trail, request } = input;
  const attempt = { email: input.email, ip: request.sourceIp };
  const lockedFor = await input.attempts.lockedFor(attempt);
  if (lockedFor !== undefined) {
    const account = await findAccount(input.accounts, input.email);
    await trail.record(signInFailureEvent(request, account, 'locked'));
    return { ok: false, reason: 'locked', retryAfterSeconds: lockedFor };
  }
  let account: AdminAccount | undefined;
  let matches: boolean;
  try {
    ({ account, matches } = await input.passwordChecks.run(async () => {
      const found = await findAccount(input.accounts, input.email);
      return { account: found, matches: await verifyPassword(input.password, found?.passwordHash) };
    }));
  } catch (error) {
    if (error instanceof GateFullError) {
      return { ok: false, reason: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
    }
    throw error;
  }
  if (account === undefined || account.disabled || !matches) {
    const engaged = await input.attempts.recordFailure(attempt);
    await trail.record(signInFailureEvent(request, account, failureReason(account)));
    for (const event of lockOutEvents(request, account, engaged)) await trail.record(event);
    return { ok: false, reason: 'invalid-credentials' };
  }
  await input.attempts.recordSuccess(attempt);
  await trail.record(signInEvent(request, account));
  return { ok: true, account };
}
