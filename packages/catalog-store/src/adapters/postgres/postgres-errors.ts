import { ValidationError } from '../../errors/request-errors.ts';

/**
 * PostgreSQL's text cannot hold U+0000 (SQLSTATE 22021, "invalid byte sequence"), where SQLite's
 * can. A value carrying one, in a write or in a lookup, is the caller's bad input: a 400 with the
 * reason, never a 500.
 */
const NOT_STORABLE_TEXT = '22021';

/** The store's error for a PostgreSQL error that is the caller's fault; anything else unchanged. */
export function storeErrorOf(error: unknown): unknown {
  if ((error as { code?: unknown }).code === NOT_STORABLE_TEXT) {
    return new ValidationError('text', 'must not contain the NUL character (U+0000)');
  }
  return error;
}
