import { auditQuery } from '../audit/audit-query.ts';
import type { AuditFilter, AuditPage, NewAuditEvent } from '../model/audit-event.ts';
import type { AuditLog } from '../ports/audit-log.ts';
import { appendAuditEvent, auditPageQuery } from './audit-records.ts';
import { type AuditRow, toEvent } from './audit-row.ts';
import type { RecordEngine } from './record-engine.ts';
import { rows } from './record-work.ts';

/** The audit trail on either record engine. */
export class RecordAuditLog implements AuditLog {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  async append(event: NewAuditEvent): Promise<void> {
    await this.#engine.write(() => appendAuditEvent(event));
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    const query = auditPageQuery(auditQuery(filter), this.#engine.dialect);
    const found = await this.#engine.direct(() => rows<AuditRow>(query.sql, ...query.params));
    const events = found.slice(0, filter.limit).map(toEvent);
    const last = events.at(-1);
    return { events, nextBefore: found.length > filter.limit && last !== undefined ? last.id : null };
  }
}
