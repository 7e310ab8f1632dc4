import { ValidationError } from '../errors/request-errors.ts';
import type { AuditFilter } from '../model/audit-event.ts';

/** An audit filter as every engine queries it: times as epoch milliseconds, the cursor as an id. */
export interface AuditQuery {
  readonly actor?: string | undefined;
  readonly action?: string | undefined;
  readonly targetType?: string | undefined;
  readonly targetId?: string | undefined;
  readonly sinceMs?: number | undefined;
  readonly untilMs?: number | undefined;
  readonly beforeId?: number | undefined;
  readonly limit: number;
}

function epochOf(field: 'since' | 'until', iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const epoch = Date.parse(iso);
  if (Number.isNaN(epoch)) throw new ValidationError(field, 'must be an ISO 8601 date-time');
  return epoch;
}

/** Checks a filter before any engine reads: a bad bound or cursor is a 400, not an empty page. */
export function auditQuery(filter: AuditFilter): AuditQuery {
  if (!Number.isSafeInteger(filter.limit) || filter.limit < 1) {
    throw new ValidationError('limit', 'must be a positive integer');
  }
  if (filter.before !== undefined && !/^[1-9][0-9]{0,14}$/.test(filter.before)) {
    throw new ValidationError('before', 'must be the id of an audit event');
  }
  return {
    actor: filter.actor,
    action: filter.action,
    targetType: filter.targetType,
    targetId: filter.targetId,
    sinceMs: epochOf('since', filter.since),
    untilMs: epochOf('until', filter.until),
    beforeId: filter.before === undefined ? undefined : Number(filter.before),
    limit: filter.limit,
  };
}
