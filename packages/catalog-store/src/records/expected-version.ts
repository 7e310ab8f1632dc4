import { PreconditionFailedError } from '../errors/request-errors.ts';

/**
 * The versions a conditional write was made against (the API's If-Match, which may list several),
 * or undefined for a write that takes the record as it is. Checked inside the write transaction,
 * which holds every other writer off (SQLite's single writer, PostgreSQL's write clock), so no write
 * can slip in between the check and the write. An empty list matches no version.
 */
export type ExpectedVersion = number | readonly number[] | undefined;

export function checkVersion(resource: string, id: string, current: number, expected: ExpectedVersion): void {
  if (expected === undefined) return;
  const matches = typeof expected === 'number' ? expected === current : expected.includes(current);
  if (!matches) throw new PreconditionFailedError(resource, id, current);
}
