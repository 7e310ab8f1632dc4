import type { AuditFilter, AuditPage, NewAuditEvent } from '../model/audit-event.ts';

/**
 * The audit trail. Writes of the other stores that take an `AuditContext` append their own event in
 * the same transaction as the change (a rolled-back write leaves no event); `append` is for actions
 * that change no record (a sign-in, a rotation-instructions request, a key rotation on disk).
 * There is no update or delete: the trail is append-only.
 */
export interface AuditLog {
  append(event: NewAuditEvent): Promise<void>;
  list(filter: AuditFilter): Promise<AuditPage>;
}
