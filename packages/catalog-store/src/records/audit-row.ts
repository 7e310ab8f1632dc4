import { toIso } from '../adapters/timestamps.ts';
import type {
  AuditAction,
  AuditActor,
  AuditChange,
  AuditEvent,
  AuditTargetType,
  NewAuditEvent,
} from '../model/audit-event.ts';

// An audit_events row, the same columns on both engines, and how it maps to and from the model.

export interface AuditRow {
  id: number;
  occurred_at: number;
  actor_kind: AuditActor['kind'];
  actor_id: string | null;
  actor_email: string | null;
  action: AuditAction;
  target_type: AuditTargetType;
  target_id: string | null;
  changes: string | null;
  details: string | null;
  source_ip: string | null;
  request_id: string | null;
}

export const OPERATOR_ACTOR_ID = 'operator-cli';
export const WEBHOOK_WORKER_ACTOR_ID = 'webhook-delivery';

/** The columns an appended event sets, in the order of `auditRowValues`. */
export const AUDIT_INSERT_COLUMNS =
  'occurred_at, actor_kind, actor_id, actor_email, action, target_type, target_id, changes, details, source_ip, request_id';

/** An event's AUDIT_INSERT_COLUMNS values, stamped `occurredAt`. */
export function auditRowValues(event: NewAuditEvent, occurredAt: number): Array<string | number | null> {
  const actor = actorColumns(event.actor);
  return [
    occurredAt,
    event.actor.kind,
    actor.id,
    actor.email,
    event.action,
    event.target.type,
    event.target.id,
    event.changes === undefined ? null : JSON.stringify(event.changes),
    event.details === undefined ? null : JSON.stringify(event.details),
    event.sourceIp,
    event.requestId,
  ];
}

export function actorColumns(actor: AuditActor): { id: string | null; email: string | null } {
  switch (actor.kind) {
    case 'admin':
      return { id: actor.userId, email: actor.email };
    case 'operator':
      return { id: OPERATOR_ACTOR_ID, email: null };
    case 'service':
      return { id: WEBHOOK_WORKER_ACTOR_ID, email: null };
    case 'unknown':
      return { id: null, email: null };
  }
}

function toActor(row: AuditRow): AuditActor {
  switch (row.actor_kind) {
    case 'admin':
      return { kind: 'admin', userId: row.actor_id ?? '', email: row.actor_email ?? '' };
    case 'operator':
      return { kind: 'operator', name: OPERATOR_ACTOR_ID };
    case 'service':
      return { kind: 'service', name: WEBHOOK_WORKER_ACTOR_ID };
    case 'unknown':
      return { kind: 'unknown' };
  }
}

export function toEvent(row: AuditRow): AuditEvent {
  return {
    id: String(row.id),
    occurredAt: toIso(row.occurred_at),
    actor: toActor(row),
    sourceIp: row.source_ip,
    requestId: row.request_id,
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    ...(row.changes === null
      ? {}
      : { changes: JSON.parse(row.changes) as Readonly<Record<string, AuditChange>> }),
    ...(row.details === null
      ? {}
      : { details: JSON.parse(row.details) as Readonly<Record<string, string | number | boolean | null>> }),
  };
}
