import { type MigrationReport, migrate } from './migrate.ts';
import { openDatabase } from './open-database.ts';
import { backfillSearchDocuments } from './write-search-documents.ts';

export interface DatabaseUpgradeReport extends MigrationReport {
  /** Stored search documents written for products that had none (once, after migration 6). */
  searchDocumentsWritten: number;
}

/** `pnpm catalog migrate`: applies pending migrations and their backfills to the file and closes it. */
export function migrateDatabase(databasePath: string): DatabaseUpgradeReport {
  const db = openDatabase(databasePath);
  try {
    const report = migrate(db);
    return { ...report, searchDocumentsWritten: backfillSearchDocuments(db) };
  } finally {
    db.close();
  }
}
