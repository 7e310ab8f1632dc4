import type pg from 'pg';
import type { RecordEngine, SqlDialect } from '../../../records/record-engine.ts';
import type { RecordWork, SqlStep } from '../../../records/record-work.ts';
import { runRecordWorkAsync } from '../../../records/run-record-work.ts';
import { inReadTransaction, inWriteTransaction } from '../transaction.ts';

const UNIQUE_VIOLATION = '23505';

export const POSTGRES_DIALECT: SqlDialect = {
  byteOrder: ' COLLATE "C"',
  sameEmail: (column, placeholder) => `lower(${column}) = lower(${placeholder})`,
  inList: (column) => `${column} = ANY(?)`,
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  jsonRecords: (columns) =>
    `json_to_recordset(?::json) AS r(${columns.map(([name, type]) => `${name} ${type}`).join(', ')})`,
  list: (values) => values,
  isUniqueViolation: (error, index) => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    return code === UNIQUE_VIOLATION && constraint === index;
  },
};

const numbered = new Map<string, string>();

/** A statement written with `?` placeholders, as pg wants it: `$1`, `$2`… in order. */
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => {
      n += 1;
      return `$${n}`;
    });
    numbered.set(sql, text);
  }
  return text;
}

/** Runs one step on a pool or a pooled connection; `time` is the write transaction's, if any. */
export function postgresStep(
  db: pg.Pool | pg.PoolClient,
  time: number | undefined,
): (step: SqlStep) => Promise<unknown> {
  return async (step) => {
    switch (step.kind) {
      case 'rows':
        return (await db.query(numberPlaceholders(step.sql), step.params as unknown[])).rows;
      case 'run':
        return (await db.query(numberPlaceholders(step.sql), step.params as unknown[])).rowCount ?? 0;
      case 'time':
        if (time === undefined) throw new Error('a transaction time exists only inside a write transaction');
        return time;
      case 'connection':
        return await step.call(db);
    }
  };
}

/**
 * Runs a rule inside the caller's write transaction (`client`, stamped `ts`), for the PostgreSQL
 * writes that are not rules (the bulk loads, a product's own SQL).
 */
export function runInWriteTransaction<T>(client: pg.PoolClient, ts: number, work: RecordWork<T>): Promise<T> {
  return runRecordWorkAsync(work, postgresStep(client, ts));
}

/** PostgreSQL: a rule's write transaction takes the write clock's lock and its time (transaction.ts). */
export function postgresRecordEngine(pool: pg.Pool): RecordEngine {
  return {
    dialect: POSTGRES_DIALECT,
    write: (work) =>
      inWriteTransaction(pool, (client, ts) => runRecordWorkAsync(work(), postgresStep(client, ts))),
    direct: (work) => runRecordWorkAsync(work(), postgresStep(pool, undefined)),
    snapshot: (work) =>
      inReadTransaction(pool, (client) => runRecordWorkAsync(work(), postgresStep(client, undefined))),
  };
}
