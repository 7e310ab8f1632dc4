import type pg from 'pg';
import { type AuditQuery, auditQuery } from '../../audit/audit-query.ts';
import type { AuditEvent, AuditFilter, AuditPage, NewAuditEvent } from '../../model/audit-event.ts';
import type { AuditLog } from '../../ports/audit-log.ts';
import { AUDIT_INSERT_COLUMNS, type AuditRow, auditRowValues, toEvent } from '../audit-row.ts';
import { toIso } from '../timestamps.ts';
import { inWriteTransaction } from './transaction.ts';

/**
 * Appends one event inside the caller's write transaction, so that it commits with the change it
 * records or rolls back with it. Its time is the transaction's `ts`: the write clock never goes
 * back and ids are handed out under its lock, so the trail's order by id (how it is paged) is also
 * its order by time (how it is filtered).
 */
export async function appendAuditEvent(
  client: pg.PoolClient,
  event: NewAuditEvent,
  ts: number,
): Promise<AuditEvent> {
  const result = await client.query<{ id: number }>(
    `INSERT INTO audit_events (${AUDIT_INSERT_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    auditRowValues(event, ts),
  );
  return { ...event, id: String(result.rows[0]?.id), occurredAt: toIso(ts) };
}

/** The parameters of one query, each value bound once and referred to by its `$n` wherever used. */
class Params {
  readonly values: unknown[] = [];

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The id of the oldest event at or after a time, or past every id when there is none. Times never
 * go back as ids grow (appendAuditEvent), so "at or after t" is "id at or above this": a time bound
 * becomes an id range, and every filter walks its index in id order instead of sorting the window.
 */
function firstIdAt(at: string): string {
  return `coalesce((SELECT id FROM audit_events WHERE occurred_at >= ${at} ORDER BY occurred_at, id LIMIT 1), ${Number.MAX_SAFE_INTEGER})`;
}

/** The conditions of a filter but the actor's; each has an index ending in `id` (migration 1). */
function conditionsOf(filter: AuditQuery, params: Params): string {
  const conditions: string[] = ['true'];
  if (filter.action !== undefined) conditions.push(`action = ${params.bind(filter.action)}`);
  if (filter.targetType !== undefined) conditions.push(`target_type = ${params.bind(filter.targetType)}`);
  if (filter.targetId !== undefined) conditions.push(`target_id = ${params.bind(filter.targetId)}`);
  if (filter.sinceMs !== undefined) conditions.push(`id >= ${firstIdAt(params.bind(filter.sinceMs))}`);
  if (filter.untilMs !== undefined) conditions.push(`id < ${firstIdAt(params.bind(filter.untilMs))}`);
  if (filter.beforeId !== undefined) conditions.push(`id < ${params.bind(filter.beforeId)}`);
  return conditions.join(' AND ');
}

/**
 * One page plus one row (to tell whether another page follows). An actor is a user id or an email
 * (or `operator-cli`, the operator's actor id): each is looked up in its own index, newest first and
 * limited, and the two short lists merged, rather than one OR that would sort all the actor's events.
 */
function pageQuery(filter: AuditQuery): { sql: string; values: unknown[] } {
  const params = new Params();
  const where = conditionsOf(filter, params);
  const rows = params.bind(filter.limit + 1);
  if (filter.actor === undefined) {
    return {
      sql: `SELECT * FROM audit_events WHERE ${where} ORDER BY id DESC LIMIT ${rows}`,
      values: params.values,
    };
  }
  const actor = params.bind(filter.actor);
  // lower() on both sides, as the index on actor_email has it: an email matches whatever its case.
  const byActor = (condition: string) =>
    `(SELECT * FROM audit_events WHERE ${condition} AND ${where} ORDER BY id DESC LIMIT ${rows})`;
  return {
    sql: `${byActor(`actor_id = ${actor}`)} UNION ${byActor(`lower(actor_email) = lower(${actor})`)}
      ORDER BY id DESC LIMIT ${rows}`,
    values: params.values,
  };
}

export class PostgresAuditLog implements AuditLog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async append(event: NewAuditEvent): Promise<void> {
    await inWriteTransaction(this.#pool, (client, ts) => appendAuditEvent(client, event, ts));
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    const query = pageQuery(auditQuery(filter));
    const result = await this.#pool.query<AuditRow>(query.sql, query.values);
    const events = result.rows.slice(0, filter.limit).map(toEvent);
    const last = events.at(-1);
    return { events, nextBefore: result.rows.length > filter.limit && last !== undefined ? last.id : null };
  }
}
