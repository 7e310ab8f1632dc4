import type { AuditEvent as ContractAuditEvent } from '@catalog/contracts';
import type { AuditEvent } from '@catalog/store';

/** The contract's event, field by field: nothing the store may ever add leaves the API unlisted. */
export function projectAuditEvent(event: AuditEvent): ContractAuditEvent {
  return {
    id: event.id,
    occurredAt: event.occurredAt,
    action: event.action,
    actor: event.actor,
    target: { type: event.target.type, id: event.target.id },
    sourceIp: event.sourceIp,
    requestId: event.requestId,
    ...(event.changes === undefined ? {} : { changes: { ...event.changes } }),
    ...(event.details === undefined ? {} : { details: { ...event.details } }),
  };
}
