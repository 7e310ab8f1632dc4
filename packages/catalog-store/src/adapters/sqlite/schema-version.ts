import type { DatabaseSync } from 'node:sqlite';

/**
 * The schema version a catalogue file records (its highest applied migration), or undefined when
 * it has no migrations table: a file never migrated, or not a catalogue at all.
 */
export function recordedSchemaVersion(db: DatabaseSync): number | undefined {
  const tracked = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (tracked === undefined) return undefined;
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}
