import pg from 'pg';
import { ValidationError } from '../../errors/request-errors.ts';

/**
 * PostgreSQL's text cannot hold U+0000 (SQLSTATE 22021, "invalid byte sequence"), where SQLite's
 * can. A value carrying one, in a write or in a lookup, is the caller's bad input: a 400 with the
 * reason, never a 500.
 */
const NOT_STORABLE_TEXT = '22021';

/**
 * The store's error for a server error that is the caller's fault; anything else unchanged,
 * including an error a caller already explained (the copy names the table and line).
 */
export function storeErrorOf(error: unknown): unknown {
  if (error instanceof pg.DatabaseError && error.code === NOT_STORABLE_TEXT) {
    return new ValidationError('text', 'must not contain the NUL character (U+0000)');
  }
  return error;
}

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(holdsNul);

/** A SELECT given a parameter holding U+0000: its answer is "no row", which SQLite gives too. */
export function isLookupOfUnstorableText(text: unknown, values: unknown): boolean {
  return (
    typeof text === 'string' && /^\s*SELECT\b/i.test(text) && Array.isArray(values) && values.some(holdsNul)
  );
}

const guarded = new WeakSet<object>();

/**
 * Makes `target.query` (a pool or a pooled connection) answer a lookup by a value holding U+0000
 * with no row, as it must, instead of the server's refusal; once per object.
 */
export function answerUnstorableLookups(target: { query: unknown }): void {
  if (guarded.has(target)) return;
  guarded.add(target);
  const query = (target.query as (...args: unknown[]) => Promise<unknown>).bind(target);
  Object.assign(target, {
    query: (...args: unknown[]) =>
      isLookupOfUnstorableText(args[0], args[1])
        ? Promise.resolve({ rows: [], rowCount: 0 })
        : query(...args),
  });
}
