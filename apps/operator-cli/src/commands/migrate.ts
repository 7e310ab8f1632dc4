import { catalogDatabasePath, type DatabaseUpgradeReport, migrateDatabase } from '@catalog/store';
import { ensureDataDir, openCatalog } from '../open-catalog.ts';
import { OPERATOR_AUDIT } from '../operator-audit.ts';
import type { Output } from '../output.ts';

/** Recorded only when migrations ran: a migrate that found nothing to do changed nothing. */
async function recordMigration(dataDir: string, report: DatabaseUpgradeReport): Promise<void> {
  if (report.applied.length === 0) return;
  // Opened after migrating: the trail's table may be one of the migrations just applied.
  const store = openCatalog(dataDir);
  try {
    await store.audit.append({
      ...OPERATOR_AUDIT,
      action: 'catalogue.migrate',
      target: { type: 'catalogue', id: null },
      details: {
        fromVersion: report.fromVersion,
        toVersion: report.toVersion,
        searchDocumentsWritten: report.searchDocumentsWritten,
      },
    });
  } finally {
    await store.close();
  }
}

export async function runMigrate(dataDir: string, output: Output): Promise<void> {
  ensureDataDir(dataDir);
  const path = catalogDatabasePath(dataDir);
  const report = migrateDatabase(path);
  await recordMigration(dataDir, report);
  if (report.applied.length === 0)
    output.out(`${path}: schema at version ${report.toVersion}, nothing to do`);
  else output.out(`${path}: applied ${report.applied.join(', ')} (now at version ${report.toVersion})`);
  if (report.searchDocumentsWritten > 0)
    output.out(`${path}: wrote the stored search documents of ${report.searchDocumentsWritten} products`);
}
