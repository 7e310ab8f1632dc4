import type { DatabaseSync } from 'node:sqlite';
import { statement } from '../statement-cache.ts';

/** The newest entry's sequence, 0 for none: one step down the table's rowid B-tree. */
export function feedHead(db: DatabaseSync): number {
  const row = statement(db, 'SELECT coalesce(max(sequence), 0) AS head FROM change_feed').get() as {
    head: number;
  };
  return row.head;
}
