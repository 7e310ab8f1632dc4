import type { DatabaseSync } from 'node:sqlite';
import { statement } from './statement-cache.ts';

/**
 * Changes whenever what the connection sees may have changed: `PRAGMA data_version` on every
 * commit by any other connection, in this process or another (read inside a read transaction, it
 * describes that transaction's snapshot), and `total_changes()` on every row this connection
 * writes itself. A per-connection cache keyed on it needs no per-row invalidation to get wrong.
 */
export function snapshotVersion(db: DatabaseSync): string {
  const sql = "SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes() AS version";
  return (statement(db, sql).get() as { version: string }).version;
}
