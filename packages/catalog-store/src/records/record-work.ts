/**
 * A value a statement binds: what both drivers accept for the records' columns. A flag is bound as
 * 0 or 1, which SQLite's integer flags hold and PostgreSQL reads as a boolean parameter; a list
 * only as SqlDialect.list gives it (an array for PostgreSQL, JSON text for SQLite).
 */
export type SqlValue = string | number | bigint | null | readonly string[];

/**
 * One thing a record rule asks of its engine. A rule is a generator yielding these, so that the
 * embedded engine can run it synchronously inside one transaction (nothing else on its connection
 * can slip in between two statements) and PostgreSQL can await each statement, from one source.
 */
export type SqlStep =
  | { readonly kind: 'rows'; readonly sql: string; readonly params: readonly SqlValue[] }
  | { readonly kind: 'run'; readonly sql: string; readonly params: readonly SqlValue[] }
  | { readonly kind: 'time' }
  | { readonly kind: 'connection'; readonly call: (connection: unknown) => unknown };

/** A record rule: yields its statements, returns its result. Statements use `?` placeholders. */
export type RecordWork<T> = Generator<SqlStep, T, unknown>;

/** The rows a query returns. */
export function* rows<Row>(sql: string, ...params: SqlValue[]): RecordWork<Row[]> {
  return (yield { kind: 'rows', sql, params }) as Row[];
}

/** The first row a query returns, if any. */
export function* row<Row>(sql: string, ...params: SqlValue[]): RecordWork<Row | undefined> {
  const found = yield* rows<Row>(sql, ...params);
  return found[0];
}

/** Runs a statement that returns no rows; gives the number of rows it changed. */
export function* run(sql: string, ...params: SqlValue[]): RecordWork<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

/**
 * The time of the write transaction the rule runs in, in epoch milliseconds: one time for every
 * timestamp the transaction stamps, never earlier than any time an earlier transaction stamped.
 */
export function* transactionTime(): RecordWork<number> {
  return (yield { kind: 'time' }) as number;
}

/**
 * A step of an engine's own record code (its product SQL, which the two dialects write too
 * differently to share), run on the connection the rule runs on: SQLite's database, synchronously,
 * or the PostgreSQL client of the rule's transaction. Only an engine's own files pass a `call`.
 */
export function* onConnection<Connection, T>(call: (connection: Connection) => T): RecordWork<Awaited<T>> {
  return (yield { kind: 'connection', call: call as (connection: unknown) => unknown }) as Awaited<T>;
}
