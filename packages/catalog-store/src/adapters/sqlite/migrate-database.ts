import { type MigrationReport, migrate } from './migrate.ts';
import { openDatabase } from './open-database.ts';

/** `pnpm catalog migrate`: applies pending migrations to the file and closes it. */
export function migrateDatabase(databasePath: string): MigrationReport {
  const db = openDatabase(databasePath);
  try {
    return migrate(db);
  } finally {
    db.close();
  }
}
