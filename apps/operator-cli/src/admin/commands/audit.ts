import { catalogueAbsence } from '@catalog/engines';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, type AuditFilter, ValidationError } from '@catalog/store';
import { InvalidArgumentError } from 'commander';
import { openCatalog } from '../../open-catalog.ts';
import type { Output } from '../../output.ts';
import { UsageError } from '../../usage-error.ts';
import type { AdminEnv } from '../config/admin-env.ts';
import { auditJsonLine, auditTable } from '../format-audit-events.ts';

export const AUDIT_LIMIT_DEFAULT = 50;
/** One page at most; older events are reached with --before. */
export const AUDIT_LIMIT_MAX = 1000;

/** The store's filter, as commander parsed it from the options, and the output format. */
export interface AuditCommandOptions extends AuditFilter {
  readonly json: boolean;
}

// Parsers of the options: a bad value is commander's usage error (exit 2), named by its option.

function oneOf<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`must be one of: ${values.join(', ')}`);
    }
    return value as T;
  };
}

export const parseAuditAction = oneOf(AUDIT_ACTIONS);
export const parseAuditTargetType = oneOf(AUDIT_TARGET_TYPES);

export function parseNonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

export function parseAuditLimit(value: string): number {
  const limit = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_LIMIT_MAX) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${AUDIT_LIMIT_MAX}`);
  }
  return limit;
}

// A date, or a date-time with its zone: a time without one would mean the machine's local time.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date (UTC midnight) or date-time with zone, normalised to UTC. */
export function parseAuditTime(value: string): string {
  const epoch = Date.parse(value);
  if (!ISO_TIME.test(value) || Number.isNaN(epoch)) {
    throw new InvalidArgumentError(
      'must be an ISO 8601 date (2025-01-31) or date-time with zone (2025-01-31T12:00:00Z)',
    );
  }
  return new Date(epoch).toISOString();
}

export function parseEventId(value: string): string {
  if (!/^[1-9][0-9]{0,14}$/.test(value)) {
    throw new InvalidArgumentError('must be an event id, as printed after "--before" at the end of a page');
  }
  return value;
}

function filterOf(options: AuditCommandOptions): AuditFilter {
  const { since, until } = options;
  if (since !== undefined && until !== undefined && since >= until) {
    throw new UsageError('--since must be earlier than --until');
  }
  const { json: _format, ...filter } = options;
  return filter;
}

/**
 * `pnpm admin audit`: the audit trail newest first, one page, read-only (there is no command that
 * edits or deletes an event). When older events match, the --before value of the next page goes to
 * stderr, so stdout stays the events alone.
 */
export async function runAudit(env: AdminEnv, options: AuditCommandOptions, output: Output) {
  const filter = filterOf(options);
  // Reading must not create an empty database where the operator mistyped the directory.
  const absence = catalogueAbsence(env.storage);
  if (absence !== undefined) throw new UsageError(`${absence} (set DATA_DIR or --data-dir)`);
  const store = await openCatalog(env.storage);
  try {
    let page: Awaited<ReturnType<typeof store.audit.list>>;
    try {
      page = await store.audit.list(filter);
    } catch (error) {
      if (error instanceof ValidationError) throw new UsageError(error.message);
      throw error;
    }
    if (options.json) {
      for (const event of page.events) output.out(auditJsonLine(event));
    } else if (page.events.length === 0) {
      output.err('no audit events match');
    } else {
      for (const line of auditTable(page.events)) output.out(line);
    }
    if (page.nextBefore !== null) {
      output.err(`older events match: run again with --before ${page.nextBefore}`);
    }
  } finally {
    await store.close();
  }
}
