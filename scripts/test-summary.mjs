#!/usr/bin/env node
// Adds up every package's vitest JSON report into closing lines, so a reader (or CI) sees the whole
// suite's count at the end: "tests: N passed, N failed, N skipped" and "files: N failed". A package may
// write more than one report (the SDK's Node 20 run writes results-node20.json beside results.json).
// A file that fails outside a test (an import, beforeAll, afterAll) has no failed test in the report,
// only a failed file: counting tests alone would call such a run clean.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['apps', 'packages', 'tooling', 'tests'];
const reports = roots
  .filter((root) => statSync(root, { throwIfNoEntry: false })?.isDirectory())
  .flatMap((root) => readdirSync(root).map((name) => join(root, name, '.vitest')))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /^results.*\.json$/.test(name))
      .map((name) => join(dir, name)),
  );

if (process.argv[2] === '--clean') {
  for (const file of reports) rmSync(file);
  process.exit(0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failedFiles = [];
/** Reports whose run vitest calls unsuccessful although no test or file in them failed. */
const failedRuns = [];
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  const before = failedFiles.length;
  for (const result of report.testResults ?? []) {
    if (result.status === 'failed') failedFiles.push(`${result.name} (${file})`);
  }
  if (report.success === false && report.numFailedTests === 0 && failedFiles.length === before) {
    failedRuns.push(file);
  }
}
if (reports.length === 0) {
  process.stderr.write('test-summary: no test reports found\n');
  process.exit(1);
}
const listed = (label, items) => items.map((item) => `  ${label}: ${item}\n`).join('');
process.stdout.write(
  `\n${reports.length} test reports\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n` +
    `files: ${failedFiles.length} failed\n${listed('failed', failedFiles)}` +
    listed('run failed without a failed test or file', failedRuns),
);
process.exit(failed === 0 && failedFiles.length === 0 && failedRuns.length === 0 ? 0 : 1);
