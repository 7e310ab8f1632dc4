import type { AuditChange, AuditContext, NewAuditEvent } from '../model/audit-event.ts';

/** The context's three fields and nothing else a caller's object may carry. */
export function contextOf(context: AuditContext): AuditContext {
  return { actor: context.actor, sourceIp: context.sourceIp, requestId: context.requestId };
}

/** Value equality for record fields: scalars, arrays and plain objects as the stores read them. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields among `names` whose value differs between `before` and `after`, with both values
 * (`withValues`) or only their names (`{}`: the field changed, its content is not repeated).
 */
export function changedFields<T extends object>(
  before: T,
  after: T,
  names: readonly (keyof T & string)[],
  withValues: boolean,
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const name of names) {
    const from = before[name] ?? null;
    const to = after[name] ?? null;
    if (!same(from, to)) changes[name] = withValues ? { from, to } : {};
  }
  return changes;
}

/**
 * A write's event with the version of the record it replaced: what an administrator comparing the
 * trail with an ETag they hold (or a 412 they got) needs to place the write.
 */
export function replacingVersion(event: NewAuditEvent, version: number): NewAuditEvent {
  return { ...event, details: { ...event.details, replacedVersion: version } };
}
