import { migrateCatalogue } from '@catalog/engines';
import type { DatabaseUpgradeReport, StorageLocation } from '@catalog/store';
import { asUsageError, describeLocation, openCatalog } from '../open-catalog.ts';
import { OPERATOR_AUDIT } from '../operator-audit.ts';
import type { Output } from '../output.ts';

/** Recorded only when migrations ran: a migrate that found nothing to do changed nothing. */
async function recordMigration(location: StorageLocation, report: DatabaseUpgradeReport): Promise<void> {
  if (report.applied.length === 0) return;
  // Opened after migrating: the trail's table may be one of the migrations just applied.
  const store = await openCatalog(location);
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

export async function runMigrate(location: StorageLocation, output: Output): Promise<void> {
  const report = await asUsageError(migrateCatalogue(location));
  await recordMigration(location, report);
  const where = describeLocation(location);
  if (report.applied.length === 0)
    output.out(`${where}: schema at version ${report.toVersion}, nothing to do`);
  else output.out(`${where}: applied ${report.applied.join(', ')} (now at version ${report.toVersion})`);
  if (report.searchDocumentsWritten > 0)
    output.out(`${where}: wrote the stored search documents of ${report.searchDocumentsWritten} products`);
}
