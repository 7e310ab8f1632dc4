import type { DatabaseSync } from 'node:sqlite';
import { statement } from './statement-cache.ts';

const beforeCommit = new WeakMap<DatabaseSync, () => void>();
const timeOfTransaction = new WeakMap<DatabaseSync, number>();
const lockHeld = new WeakMap<DatabaseSync, number>();

/**
 * How long `db`'s write transactions since the last call held the file's write lock, in
 * milliseconds, each from BEGIN IMMEDIATE's return (the wait for the lock excluded) to the end of
 * its COMMIT or ROLLBACK: what a writer that paces itself by its share of the lock counts
 * (write-lock-share.ts).
 */
export function takeWriteLockHold(db: DatabaseSync): number {
  const held = lockHeld.get(db) ?? 0;
  lockHeld.delete(db);
  return held;
}

/**
 * Work that every write transaction on `db` does last, just before it commits: rows derived from
 * what the transaction wrote (see write-search-documents.ts) are brought up to date in the same
 * commit, whichever store method wrote.
 */
export function setBeforeCommit(db: DatabaseSync, work: () => void): void {
  beforeCommit.set(db, work);
}

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
  const lockedAt = performance.now();
  timeOfTransaction.delete(db);
  try {
    const result = work();
    beforeCommit.get(db)?.();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  } finally {
    lockHeld.set(db, (lockHeld.get(db) ?? 0) + performance.now() - lockedAt);
  }
}

/**
 * `inWriteTransaction` for work that awaits between its statements (a load that reads its batches
 * from a file). Nothing else may write on this connection meanwhile: its statements would join the
 * transaction. Its callers run before the connection serves anything else: the operator CLI's
 * loads, and the API's demo load at first start.
 */
export async function inLongWriteTransaction<T>(db: DatabaseSync, work: () => Promise<T>): Promise<T> {
  if (db.isTransaction) throw new Error('a long write transaction cannot be nested');
  db.exec('BEGIN IMMEDIATE');
  timeOfTransaction.delete(db);
  try {
    const result = await work();
    beforeCommit.get(db)?.();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The time of the write transaction open on `db`, the same for every timestamp it stamps: never
 * earlier than any product's updatedAt or audit event's time already committed (the write lock is
 * held, so nothing commits meanwhile), and after every product's, so that a product updated during
 * a sync walk lands ahead of the walker's cursor. PostgreSQL's write clock (postgres/transaction.ts)
 * keeps the same rule across processes.
 */
export function transactionTime(db: DatabaseSync): number {
  if (!db.isTransaction) throw new Error('a transaction time exists only inside a write transaction');
  let time = timeOfTransaction.get(db);
  if (time === undefined) {
    const latest = statement(
      db,
      `SELECT (SELECT max(updated_at) + 1 FROM products) AS product,
              (SELECT occurred_at FROM audit_events ORDER BY id DESC LIMIT 1) AS audit`,
    ).get() as { product: number | null; audit: number | null };
    time = Math.max(Date.now(), latest.product ?? 0, latest.audit ?? 0);
    timeOfTransaction.set(db, time);
  }
  return time;
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
