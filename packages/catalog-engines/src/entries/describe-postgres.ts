/** A PostgreSQL URL for messages: host, port and database, never the password it may carry. */
export function describePostgres(url: string): string {
  const parsed = new URL(url);
  return `PostgreSQL ${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}
