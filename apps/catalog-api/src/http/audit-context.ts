import type { AuditContext } from '@catalog/store';
import type { RouteContext } from './contract-route.ts';

/**
 * Who is writing, from where, in which request: what the audit trail records with an admin write.
 * The admin routes are authorised before their handler runs, so the principal is an administrator.
 */
export function auditContextOf(ctx: RouteContext): AuditContext {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') throw new Error('audited routes run for administrators only');
  return {
    // The ID token's email claim (its `sub` when it has none), as the client records name their creator.
    actor: { kind: 'admin', userId: principal.userId, email: principal.userName },
    sourceIp: ctx.ip,
    requestId: ctx.state.requestId,
  };
}
