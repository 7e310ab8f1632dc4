import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { type AuditQuery, auditQuery } from '../../audit/audit-query.ts';
import type { AuditEvent, AuditFilter, AuditPage, NewAuditEvent } from '../../model/audit-event.ts';
import type { AuditLog } from '../../ports/audit-log.ts';
import { AUDIT_INSERT_COLUMNS, type AuditRow, auditRowValues, toEvent } from '../audit-row.ts';
import { toIso } from '../timestamps.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

/**
 * The time of a new event: never earlier than the newest event's, so that the trail's order by id
 * (how it is paged) is also its order by time (how it is filtered), whatever the clocks of the
 * processes writing it did.
 */
function nextOccurredAt(db: DatabaseSync): number {
  const row = statement(db, 'SELECT occurred_at FROM audit_events ORDER BY id DESC LIMIT 1').get() as
    | { occurred_at: number }
    | undefined;
  const now = Date.now();
  return row === undefined ? now : Math.max(now, row.occurred_at);
}

/**
 * Appends one event. Synchronous, so that a store method calls it inside the write transaction of
 * the change it records: the event commits with the change or rolls back with it. Called outside a
 * transaction it is a transaction of its own.
 */
export function appendAuditEvent(db: DatabaseSync, event: NewAuditEvent): AuditEvent {
  return inWriteTransaction(db, () => {
    const occurredAt = nextOccurredAt(db);
    const result = statement(
      db,
      `INSERT INTO audit_events (${AUDIT_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(...auditRowValues(event, occurredAt));
    return { ...event, id: String(result.lastInsertRowid), occurredAt: toIso(occurredAt) };
  });
}

/**
 * The id of the oldest event at or after a time, or past every id when there is none. Times never
 * go back as ids grow (nextOccurredAt), so "at or after t" is "id at or above this": a time bound
 * becomes an id range, and every filter walks its index in id order instead of sorting the window.
 */
const FIRST_ID_AT = `ifnull((SELECT id FROM audit_events WHERE occurred_at >= ? ORDER BY occurred_at, id LIMIT 1), ${Number.MAX_SAFE_INTEGER})`;

/** The conditions of a filter but the actor's; each has an index ending in `id` (migration 8). */
function conditionsOf(filter: AuditQuery): { sql: string; params: SQLInputValue[] } {
  const conditions: string[] = ['1'];
  const params: SQLInputValue[] = [];
  if (filter.action !== undefined) {
    conditions.push('action = ?');
    params.push(filter.action);
  }
  if (filter.targetType !== undefined) {
    conditions.push('target_type = ?');
    params.push(filter.targetType);
  }
  if (filter.targetId !== undefined) {
    conditions.push('target_id = ?');
    params.push(filter.targetId);
  }
  if (filter.sinceMs !== undefined) {
    conditions.push(`id >= ${FIRST_ID_AT}`);
    params.push(filter.sinceMs);
  }
  if (filter.untilMs !== undefined) {
    conditions.push(`id < ${FIRST_ID_AT}`);
    params.push(filter.untilMs);
  }
  if (filter.beforeId !== undefined) {
    conditions.push('id < ?');
    params.push(filter.beforeId);
  }
  return { sql: conditions.join(' AND '), params };
}

/**
 * One page plus one row (to tell whether another page follows). An actor is a user id or an email
 * (or `operator-cli`, the operator's actor id): each is looked up in its own index, newest first and
 * limited, and the two short lists merged, rather than one OR that would sort all the actor's events.
 */
function pageQuery(filter: AuditQuery): { sql: string; params: SQLInputValue[] } {
  const where = conditionsOf(filter);
  const rows = filter.limit + 1;
  if (filter.actor === undefined) {
    return {
      sql: `SELECT * FROM audit_events WHERE ${where.sql} ORDER BY id DESC LIMIT ?`,
      params: [...where.params, rows],
    };
  }
  // actor_email is COLLATE NOCASE: an email matches whatever its case.
  const byColumn = (column: string) =>
    `SELECT * FROM (SELECT * FROM audit_events WHERE ${column} = ? AND ${where.sql} ORDER BY id DESC LIMIT ?)`;
  return {
    sql: `${byColumn('actor_id')} UNION ${byColumn('actor_email')} ORDER BY id DESC LIMIT ?`,
    params: [filter.actor, ...where.params, rows, filter.actor, ...where.params, rows, rows],
  };
}

export class SqliteAuditLog implements AuditLog {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  async append(event: NewAuditEvent): Promise<void> {
    appendAuditEvent(this.#db, event);
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    const query = pageQuery(auditQuery(filter));
    const rows = statement(this.#db, query.sql).all(...query.params) as unknown as AuditRow[];
    const events = rows.slice(0, filter.limit).map(toEvent);
    const last = events.at(-1);
    return { events, nextBefore: rows.length > filter.limit && last !== undefined ? last.id : null };
  }
}
