import { toIso } from '../adapters/timestamps.ts';
import type { AuditQuery } from '../audit/audit-query.ts';
import type { AuditEvent, NewAuditEvent } from '../model/audit-event.ts';
import { AUDIT_INSERT_COLUMNS, auditRowValues } from './audit-row.ts';
import type { SqlDialect } from './record-engine.ts';
import { type RecordWork, row, type SqlValue, transactionTime } from './record-work.ts';

/**
 * Appends one event inside the write transaction of the change it records, so that it commits with
 * the change or rolls back with it. Its time is the transaction's, which never goes back, and ids
 * are handed out in commit order, so the trail's order by id (how it is paged) is also its order by
 * time (how it is filtered).
 */
export function* appendAuditEvent(event: NewAuditEvent): RecordWork<AuditEvent> {
  const occurredAt = yield* transactionTime();
  const inserted = yield* row<{ id: number | bigint }>(
    `INSERT INTO audit_events (${AUDIT_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ...auditRowValues(event, occurredAt),
  );
  return { ...event, id: String(inserted?.id), occurredAt: toIso(occurredAt) };
}

/**
 * The id of the oldest event at or after a time, or past every id when there is none. Times never
 * go back as ids grow (appendAuditEvent), so "at or after t" is "id at or above this": a time bound
 * becomes an id range, and every filter walks its index in id order instead of sorting the window.
 */
const FIRST_ID_AT = `coalesce((SELECT id FROM audit_events WHERE occurred_at >= ? ORDER BY occurred_at, id LIMIT 1), ${Number.MAX_SAFE_INTEGER})`;

/** The conditions of a filter but the actor's; each has an index ending in `id` on both engines. */
function conditionsOf(filter: AuditQuery): { sql: string; params: SqlValue[] } {
  const conditions: string[] = ['TRUE'];
  const params: SqlValue[] = [];
  const add = (condition: string, value: SqlValue) => {
    conditions.push(condition);
    params.push(value);
  };
  if (filter.action !== undefined) add('action = ?', filter.action);
  if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
  if (filter.targetId !== undefined) add('target_id = ?', filter.targetId);
  if (filter.sinceMs !== undefined) add(`id >= ${FIRST_ID_AT}`, filter.sinceMs);
  if (filter.untilMs !== undefined) add(`id < ${FIRST_ID_AT}`, filter.untilMs);
  if (filter.beforeId !== undefined) add('id < ?', filter.beforeId);
  return { sql: conditions.join(' AND '), params };
}

/**
 * One page plus one row (to tell whether another page follows). An actor is a user id or an email
 * (or `operator-cli`, the operator's actor id): each is looked up in its own index, newest first and
 * limited, and the two short lists merged, rather than one OR that would sort all the actor's events.
 */
export function auditPageQuery(filter: AuditQuery, dialect: SqlDialect): { sql: string; params: SqlValue[] } {
  const where = conditionsOf(filter);
  const rows = filter.limit + 1;
  if (filter.actor === undefined) {
    return {
      sql: `SELECT * FROM audit_events WHERE ${where.sql} ORDER BY id DESC LIMIT ?`,
      params: [...where.params, rows],
    };
  }
  const byActor = (condition: string, name: string) =>
    `SELECT * FROM (SELECT * FROM audit_events WHERE ${condition} AND ${where.sql} ORDER BY id DESC LIMIT ?) AS ${name}`;
  return {
    sql: `${byActor('actor_id = ?', 'by_id')} UNION ${byActor(dialect.sameEmail('actor_email', '?'), 'by_email')}
      ORDER BY id DESC LIMIT ?`,
    params: [filter.actor, ...where.params, rows, filter.actor, ...where.params, rows, rows],
  };
}
