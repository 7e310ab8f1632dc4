import type pg from 'pg';
import type { AuditEvent, NewAuditEvent } from '../../../model/audit-event.ts';
import { appendAuditEvent as appendAuditEventRule } from '../../../records/audit-records.ts';
import { runInWriteTransaction } from './postgres-record-engine.ts';

/**
 * Appends one event inside the caller's write transaction (`client`, stamped `ts`), for the
 * PostgreSQL writes that are not rules (the bulk loads, a product's own SQL).
 */
export function appendAuditEvent(
  client: pg.PoolClient,
  event: NewAuditEvent,
  ts: number,
): Promise<AuditEvent> {
  return runInWriteTransaction(client, ts, appendAuditEventRule(event));
}
