import { catalogDatabasePath, migrateDatabase } from '@catalog/store';
import { ensureDataDir } from '../open-catalog.ts';
import type { Output } from '../output.ts';

export function runMigrate(dataDir: string, output: Output): void {
  ensureDataDir(dataDir);
  const path = catalogDatabasePath(dataDir);
  const report = migrateDatabase(path);
  if (report.applied.length === 0)
    output.out(`${path}: schema at version ${report.toVersion}, nothing to do`);
  else output.out(`${path}: applied ${report.applied.join(', ')} (now at version ${report.toVersion})`);
  if (report.searchDocumentsWritten > 0)
    output.out(`${path}: wrote the stored search documents of ${report.searchDocumentsWritten} products`);
}
