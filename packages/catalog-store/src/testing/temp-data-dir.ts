import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The search budget of a test's store. The production default (5 s) covers a worker thread's start
 * and a query on a server; a loaded test machine can spend longer than that on the start alone, and
 * a time-out is never what a test of results means to check. Time-out tests set their own budget.
 */
export const TEST_SEARCH_TIMEOUT_MS = 120_000;

/** A new empty directory under the system's temporary folder; the test removes it. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'catalog-test-'));
}
