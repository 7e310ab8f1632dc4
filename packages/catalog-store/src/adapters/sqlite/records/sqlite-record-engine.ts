import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { RecordEngine, SqlDialect } from '../../../records/record-engine.ts';
import type { RecordWork, SqlStep } from '../../../records/record-work.ts';
import { runRecordWork } from '../../../records/run-record-work.ts';
import { statement } from '../statement-cache.ts';
import { inReadTransaction, inWriteTransaction, transactionTime } from '../transaction.ts';

export const SQLITE_DIALECT: SqlDialect = {
  byteOrder: '',
  sameEmail: (column, placeholder) => `${column} = ${placeholder}`,
  isUniqueViolation: () => false,
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  skipLocked: '',
  jsonRecords: (columns) =>
    `(SELECT ${columns.map(([name]) => `json_extract(value, '$.${name}') AS ${name}`).join(', ')} FROM json_each(?)) AS r`,
  list: (values) => JSON.stringify(values),
};

/** Runs one step on `db`, synchronously: a rule's statements and its caller's never interleave. */
export function sqliteStep(db: DatabaseSync): (step: SqlStep) => unknown {
  return (step) => {
    switch (step.kind) {
      case 'rows':
        return statement(db, step.sql).all(...(step.params as SQLInputValue[]));
      case 'run':
        return Number(statement(db, step.sql).run(...(step.params as SQLInputValue[])).changes);
      case 'time':
        return transactionTime(db);
      case 'connection':
        return step.call(db);
    }
  };
}

/**
 * Runs a rule inside the write transaction open on `db` (or one of its own), synchronously: the
 * engine's writes, and the SQLite code that is not a rule (the bulk loads) appending to the audit
 * trail in its own transaction.
 */
export function runInWriteTransaction<T>(db: DatabaseSync, work: RecordWork<T>): T {
  return inWriteTransaction(db, () => runRecordWork(work, sqliteStep(db)));
}

/**
 * Runs a rule's statements on `db` synchronously as they come: inside the transaction open on it,
 * or each on its own when none is.
 */
export function runOn<T>(db: DatabaseSync, work: RecordWork<T>): T {
  return runRecordWork(work, sqliteStep(db));
}

/**
 * The embedded engine. Its promises settle with work done synchronously: the single connection
 * must not hold a transaction open across an await, where another caller's statements would join it.
 */
export function sqliteRecordEngine(db: DatabaseSync): RecordEngine {
  return {
    dialect: SQLITE_DIALECT,
    write: async (work) => runInWriteTransaction(db, work()),
    direct: async (work) => runOn(db, work()),
    snapshot: async (work) => inReadTransaction(db, () => runOn(db, work())),
  };
}
