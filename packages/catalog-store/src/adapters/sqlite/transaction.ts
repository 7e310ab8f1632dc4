import type { DatabaseSync } from 'node:sqlite';

/**
 * Runs `work` inside one write transaction. BEGIN IMMEDIATE takes the write lock up front so two
 * processes never both read-then-write on stale data. Nested calls become savepoints.
 */
export function inWriteTransaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) {
    db.exec('SAVEPOINT nested');
    try {
      const result = work();
      db.exec('RELEASE nested');
      return result;
    } catch (error) {
      db.exec('ROLLBACK TO nested');
      db.exec('RELEASE nested');
      throw error;
    }
  }
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** A read snapshot, so that counts and pages of one search see the same data. */
export function inReadTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN');
  try {
    return work();
  } finally {
    if (db.isTransaction) db.exec('COMMIT');
  }
}
