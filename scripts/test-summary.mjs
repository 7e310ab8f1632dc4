#!/usr/bin/env node
// Adds up every package's vitest JSON report into one closing line, so a reader (or CI) sees the
// whole suite's count at the end: "tests: N passed, N failed, N skipped". A package may write more
// than one report (the SDK's Node 20 run writes results-node20.json beside results.json).
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = ['apps', 'packages', 'tooling', 'tests'];
const reports = roots
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
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
if (reports.length === 0) {
  process.stderr.write('test-summary: no test reports found\n');
  process.exit(1);
}
process.stdout.write(
  `\n${reports.length} test reports\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
);
process.exit(failed === 0 ? 0 : 1);
