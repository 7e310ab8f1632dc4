import type { AuditActor, AuditTarget, NewAuditEvent } from '@catalog/store';
import type { AdminAccount } from '../ports/admin-accounts.ts';
import type { EngagedLockOuts } from '../ports/login-attempts.ts';

/** Where a sign-in attempt came from: the address the server saw (after TRUST_PROXY), the request's id. */
export interface SignInRequest {
  readonly sourceIp: string;
  readonly requestId: string;
}

export type SignInFailureReason = 'wrong-password' | 'unknown-email' | 'disabled' | 'locked';

// An email that names no account is not kept anywhere: people type their password into that field.
const actorOf = (account: AdminAccount | undefined): AuditActor =>
  account === undefined ? { kind: 'unknown' } : { kind: 'admin', userId: account.id, email: account.email };

const targetOf = (account: AdminAccount | undefined): AuditTarget => ({
  type: 'admin-user',
  id: account?.id ?? null,
});

const contextOf = (request: SignInRequest, account: AdminAccount | undefined) => ({
  actor: actorOf(account),
  sourceIp: request.sourceIp,
  requestId: request.requestId,
});

export function signInEvent(request: SignInRequest, account: AdminAccount): NewAuditEvent {
  return { ...contextOf(request, account), action: 'admin.sign-in', target: targetOf(account) };
}

/** A refused sign-in: the account the email names (if any) and why, never what was typed. */
export function signInFailureEvent(
  request: SignInRequest,
  account: AdminAccount | undefined,
  reason: SignInFailureReason,
): NewAuditEvent {
  return {
    ...contextOf(request, account),
    action: 'admin.sign-in-failure',
    target: targetOf(account),
    details: { reason },
  };
}

/**
 * One event per lock-out the failure engaged. An email's lock-out is about the account it names;
 * an address's is about whoever is behind it, whatever emails they tried (the address is the
 * event's sourceIp).
 */
export function lockOutEvents(
  request: SignInRequest,
  account: AdminAccount | undefined,
  engaged: EngagedLockOuts,
): NewAuditEvent[] {
  const events: NewAuditEvent[] = [];
  if (engaged.email) {
    events.push({
      ...contextOf(request, account),
      action: 'admin.lock-out',
      target: targetOf(account),
      details: { scope: 'email' },
    });
  }
  if (engaged.ip) {
    events.push({
      ...contextOf(request, undefined),
      action: 'admin.lock-out',
      target: targetOf(undefined),
      details: { scope: 'source-ip' },
    });
  }
  return events;
}
