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
