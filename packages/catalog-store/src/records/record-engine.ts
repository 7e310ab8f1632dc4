import type { RecordWork, SqlValue } from './record-work.ts';

/**
 * Where the two engines' SQL must differ in a statement a rule writes once. Everything else a rule
 * writes is SQL both engines take as it is (`?` placeholders, RETURNING, coalesce, TRUE).
 */
export interface SqlDialect {
  /**
   * Appended to an ORDER BY text column so that ties sort in byte order: SQLite's BINARY collation
   * does, PostgreSQL's default collation sorts by locale.
   */
  readonly byteOrder: string;
  /**
   * A case-insensitive match of an email column, in the form its index has: SQLite's columns are
   * COLLATE NOCASE, PostgreSQL's indexes are on lower().
   */
  sameEmail(column: string, placeholder: string): string;
  /**
   * Whether a statement failed on the unique index `index`. Only PostgreSQL's concurrent writers
   * can get past a rule's check for a clash to the index; SQLite's single writer never does.
   */
  isUniqueViolation(error: unknown, index: string): boolean;
  /** `column` is one of a list bound as one parameter (`list`): json_each on SQLite, ANY on PostgreSQL. */
  inList(column: string): string;
  /** A list as `inList` binds it: JSON text on SQLite, an array on PostgreSQL. */
  list(values: readonly string[]): SqlValue;
  /**
   * Appended to a SELECT whose rows a write transaction is about to claim: PostgreSQL's concurrent
   * claimers pass over each other's rows instead of queueing; SQLite's single writer needs nothing.
   */
  readonly skipLocked: string;
  /**
   * A FROM item named `r` with these columns, its rows read from a JSON array of objects bound as one
   * parameter: how a rule inserts a batch of rows with one statement of one shape on both engines.
   */
  jsonRecords(columns: readonly (readonly [name: string, type: 'text' | 'bigint'])[]): string;
}

/** An engine the record rules run on (src/adapters/sqlite/records/, src/adapters/postgres/records/). */
export interface RecordEngine {
  readonly dialect: SqlDialect;
  /**
   * Runs a rule in one write transaction, which commits when the rule returns and rolls back when
   * it throws; `transactionTime()` is that transaction's time.
   */
  write<T>(work: () => RecordWork<T>): Promise<T>;
  /**
   * Runs a rule's statements each on its own, outside any write transaction: reads, and the
   * single-statement bookkeeping that must not queue behind catalogue writes. It has no
   * transaction time.
   */
  direct<T>(work: () => RecordWork<T>): Promise<T>;
  /** Runs a rule's reads in one read snapshot, so that they all see the same instant. */
  snapshot<T>(work: () => RecordWork<T>): Promise<T>;
}
