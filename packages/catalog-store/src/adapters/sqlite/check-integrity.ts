import { openDatabase } from './open-database.ts';

export interface IntegrityReport {
  ok: boolean;
  problems: string[];
}

/** SQLite's own integrity check, foreign keys, and the full-text indexes against their tables. */
export function checkDatabaseIntegrity(databasePath: string): IntegrityReport {
  const db = openDatabase(databasePath);
  try {
    const problems: string[] = [];
    for (const row of db.prepare('PRAGMA integrity_check').all() as Array<{ integrity_check: string }>) {
      if (row.integrity_check !== 'ok') problems.push(row.integrity_check);
    }
    for (const row of db.prepare('PRAGMA foreign_key_check').all() as Array<Record<string, unknown>>) {
      problems.push(`foreign key: ${JSON.stringify(row)}`);
    }
    for (const table of ['product_fts', 'brand_fts']) {
      try {
        db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`);
      } catch (error) {
        problems.push(`${table}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { ok: problems.length === 0, problems };
  } finally {
    db.close();
  }
}
