import type pg from 'pg';
import type { AuditEvent, NewAuditEvent } from '../../../model/audit-event.ts';
import { appendAuditEvent as appendAuditEventRule } from '../../../records/audit-records.ts';
import { runRecordWorkAsync } from '../../../records/run-record-work.ts';
import { postgresStep } from './postgres-record-engine.ts';

/**
 * Appends one event inside the caller's write transaction (`client`, stamped `ts`), for the
 * PostgreSQL writes that are not rules (product and brand writes, bulk loads).
 */
export function appendAuditEvent(
  client: pg.PoolClient,
  event: NewAuditEvent,
  ts: number,
): Promise<AuditEvent> {
  return runRecordWorkAsync(appendAuditEventRule(event), postgresStep(client, ts));
}
