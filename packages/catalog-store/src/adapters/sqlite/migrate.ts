import type { DatabaseSync } from 'node:sqlite';
import { type Migration, SchemaTooNewError } from '../migration.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { recordedSchemaVersion } from './schema-version.ts';
import { inWriteTransaction } from './transaction.ts';

export interface MigrationReport {
  fromVersion: number;
  toVersion: number;
  applied: string[];
}

/**
 * Applies pending migrations, all in one write transaction: a process racing us waits on the lock
 * and then finds nothing left to do; a failure leaves the schema at its previous version.
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): MigrationReport {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT',
  );
  return inWriteTransaction(db, () => {
    const fromVersion = recordedSchemaVersion(db) ?? 0;
    const known = migrations.at(-1)?.version ?? 0;
    if (fromVersion > known) throw new SchemaTooNewError(fromVersion, known);
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    const applied: string[] = [];
    for (const migration of migrations) {
      if (migration.version <= fromVersion) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(`${migration.version} ${migration.name}`);
    }
    return { fromVersion, toVersion: Math.max(fromVersion, known), applied };
  });
}
