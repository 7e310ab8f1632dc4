import type { AuditLog, NewAuditEvent } from '@catalog/store';
import type { AuditTrail } from '../ports/audit-trail.ts';

/** The audit trail in the shared store, the same one the catalog API appends its events to. */
export class StoreAuditTrail implements AuditTrail {
  readonly #log: AuditLog;

  constructor(log: AuditLog) {
    this.#log = log;
  }

  record(event: NewAuditEvent): Promise<void> {
    return this.#log.append(event);
  }
}
