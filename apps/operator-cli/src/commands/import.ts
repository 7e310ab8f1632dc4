import { existsSync } from 'node:fs';
import { importProducts, type StorageLocation } from '@catalog/store';
import { openCatalog } from '../open-catalog.ts';
import { OPERATOR_AUDIT } from '../operator-audit.ts';
import type { Output } from '../output.ts';
import { progressBar } from '../progress-bar.ts';
import { UsageError } from '../usage-error.ts';

/** Returns whether everything was imported. */
export async function runImport(file: string, location: StorageLocation, output: Output): Promise<boolean> {
  if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
  const store = await openCatalog(location);
  const bar = progressBar(output, 'import');
  let lastPhase = '';
  try {
    const report = await importProducts(store, file, {
      // One 'catalogue.import-batch' event per written batch, in that batch's transaction.
      audit: OPERATOR_AUDIT,
      onProgress: ({ phase, bytesRead, totalBytes, records }) => {
        // One bar per pass: the file is read once to validate, then again to write.
        if (phase !== lastPhase) bar.stop();
        lastPhase = phase;
        bar.update(
          bytesRead,
          totalBytes,
          `${phase === 'validate' ? 'validated' : 'written'} ${records} records`,
        );
      },
    });
    bar.stop();
    for (const problem of report.problems)
      output.err(`${file}:${problem.line}: ${problem.field} ${problem.reason}`);
    if (report.problemCount > report.problems.length) {
      output.err(`… and ${report.problemCount - report.problems.length} more problems`);
    }
    if (report.problemCount > 0) {
      output.err(
        `import refused: ${report.problemCount} problems in ${report.records} records; nothing was written`,
      );
      return false;
    }
    if (report.failedBatch !== undefined) {
      const { firstLine, lastLine, message } = report.failedBatch;
      output.err(`lines ${firstLine}-${lastLine}: batch not written: ${message}`);
      // Into an empty catalogue the import is one transaction: a failure leaves nothing imported.
      output.err(
        report.created + report.updated > 0
          ? `stopped: lines before ${firstLine} are imported; fix the file and run again (records upsert by id)`
          : 'stopped: nothing was imported; fix the file and run again',
      );
      return false;
    }
    output.out(`imported ${report.records} products: ${report.created} created, ${report.updated} updated`);
    return true;
  } finally {
    bar.stop();
    await store.close();
  }
}
