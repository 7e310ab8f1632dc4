import type { DatabaseSync } from 'node:sqlite';
import type { AuditEvent, NewAuditEvent } from '../../../model/audit-event.ts';
import { appendAuditEvent as appendAuditEventRule } from '../../../records/audit-records.ts';
import { runInWriteTransaction } from './sqlite-record-engine.ts';

/**
 * Appends one event in the write transaction open on `db` (or in one of its own), for the SQLite
 * writes that are not rules (the bulk loads, a product's own SQL).
 */
export function appendAuditEvent(db: DatabaseSync, event: NewAuditEvent): AuditEvent {
  return runInWriteTransaction(db, appendAuditEventRule(event));
}
