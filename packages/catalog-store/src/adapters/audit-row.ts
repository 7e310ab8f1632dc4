import type {
  AuditAction,
  AuditActor,
  AuditChange,
  AuditEvent,
  AuditTargetType,
} from '../model/audit-event.ts';
import { toIso } from './timestamps.ts';

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

export function actorColumns(actor: AuditActor): { id: string | null; email: string | null } {
  switch (actor.kind) {
    case 'admin':
      return { id: actor.userId, email: actor.email };
    case 'operator':
      return { id: OPERATOR_ACTOR_ID, email: null };
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
