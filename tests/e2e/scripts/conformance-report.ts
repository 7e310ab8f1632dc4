// Writes docs/conformance.md from the last run of the e2e suite: every rule of the registry
// (conformance/rules.ts), the tests that name it (rule ids at the start of a test's title), and their
// result, or the reason the rule cannot be checked. Run with Node 24 (type stripping):
//   node scripts/conformance-report.ts [results.json] [output.md]
// Exits non-zero when a rule has neither a test nor a reason, when a test names an unknown rule id,
// when a test failed or a test file could not run, or when there are no results at all.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES, type Rule, ruleIdsOf, SECTIONS } from '../conformance/rules.ts';

type Status = 'passed' | 'failed' | 'skipped' | 'pending' | 'todo' | 'disabled';

interface AssertionResult {
  readonly title: string;
  readonly fullName: string;
  readonly ancestorTitles: readonly string[];
  readonly status: Status;
}
interface FileResult {
  readonly name: string;
  readonly status: string;
  readonly message?: string;
  readonly assertionResults: readonly AssertionResult[];
}
interface VitestReport {
  readonly startTime?: number;
  readonly testResults: readonly FileResult[];
}

interface TestRef {
  readonly file: string;
  readonly title: string;
  readonly status: Status;
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const resultsPath = process.argv[2] ?? fileURLToPath(new URL('../.vitest/results.json', import.meta.url));
const outputPath = process.argv[3] ?? fileURLToPath(new URL('../../../docs/conformance.md', import.meta.url));
const notesPath = fileURLToPath(new URL('../conformance/notes.md', import.meta.url));

const problems: string[] = [];

function readReport(): VitestReport | undefined {
  if (!existsSync(resultsPath)) {
    problems.push(
      `no test results at ${relative(repoRoot, resultsPath)}: run the suite first (pnpm run conformance)`,
    );
    return undefined;
  }
  return JSON.parse(readFileSync(resultsPath, 'utf8')) as VitestReport;
}

const report = readReport();
const seenIds = new Set<string>();
for (const rule of RULES) {
  if (seenIds.has(rule.id)) problems.push(`rule id [${rule.id}] is registered twice`);
  seenIds.add(rule.id);
  if (!SECTIONS.some(([section]) => section === rule.section))
    problems.push(`rule [${rule.id}] belongs to no section of the report (${rule.section})`);
}
const testsByRule = new Map<string, TestRef[]>();
const unnamed: TestRef[] = [];
let passed = 0;
let failed = 0;
let skipped = 0;

for (const file of report?.testResults ?? []) {
  const fileName = relative(packageRoot, file.name);
  if (file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed')) {
    problems.push(`${fileName} failed outside its tests: ${(file.message ?? '').split('\n')[0]}`);
  }
  for (const test of file.assertionResults) {
    if (test.status === 'passed') passed += 1;
    else if (test.status === 'failed') {
      failed += 1;
      problems.push(`${fileName}: failed: ${test.fullName}`);
    } else skipped += 1;
    const ref: TestRef = { file: fileName, title: test.title, status: test.status };
    const ids = ruleIdsOf(test.title);
    if (ids.length === 0) unnamed.push(ref);
    for (const id of ids) {
      if (!RULES.some((rule) => rule.id === id)) {
        problems.push(`${fileName}: "${test.title}" names the unknown rule id [${id}]`);
        continue;
      }
      testsByRule.set(id, [...(testsByRule.get(id) ?? []), ref]);
    }
  }
}
if (failed > 0) problems.unshift(`${failed} test(s) failed`);

type Verdict = 'pass' | 'fail' | 'skipped' | 'not checkable' | 'untested';

function verdictOf(rule: Rule, tests: readonly TestRef[]): Verdict {
  if (tests.some((test) => test.status === 'failed')) return 'fail';
  if (tests.some((test) => test.status === 'passed')) return 'pass';
  if (rule.notCheckable !== undefined) return 'not checkable';
  if (tests.length > 0) return 'skipped';
  return 'untested';
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (text: string) => `\`${text.replaceAll('`', "'")}\``;
const statusMark: Record<Status, string> = {
  passed: '✅',
  failed: '❌',
  skipped: '⏭',
  pending: '⏭',
  todo: '⏭',
  disabled: '⏭',
};

function resultCell(rule: Rule, verdict: Verdict): string {
  switch (verdict) {
    case 'pass':
      return '✅ pass';
    case 'fail':
      return '❌ fail';
    case 'skipped':
      return '⏭ skipped';
    case 'not checkable':
      return `not checkable: ${rule.notCheckable}`;
    default:
      return '❗ no test and no reason';
  }
}

function testsCell(tests: readonly TestRef[]): string {
  if (tests.length === 0) return '—';
  return tests
    .map((test) => {
      const words = test.title.replace(/^(\s*\[[^\]]+\])+\s*/, '');
      return `${statusMark[test.status]} ${code(test.file.replace(/\.test\.ts$/, ''))} ${words}`;
    })
    .join('<br>');
}

const counts: Record<Verdict, number> = { pass: 0, fail: 0, skipped: 0, 'not checkable': 0, untested: 0 };
const sections: string[] = [];
for (const [section, title] of SECTIONS) {
  const rules = RULES.filter((rule) => rule.section === section);
  if (rules.length === 0) continue;
  const rows = rules.map((rule) => {
    const tests = testsByRule.get(rule.id) ?? [];
    const verdict = verdictOf(rule, tests);
    counts[verdict] += 1;
    if (verdict === 'untested') problems.push(`rule [${rule.id}] has neither a test nor a reason`);
    return `| ${cell(rule.id)} | ${cell(rule.text)} | ${cell(testsCell(tests))} | ${cell(resultCell(rule, verdict))} |`;
  });
  sections.push(
    [`## ${section} ${title}`, '', '| rule | text | test(s) | result |', '|---|---|---|---|', ...rows].join(
      '\n',
    ),
  );
}

const runDate = new Date(report?.startTime ?? Date.now()).toISOString();
const summary =
  `**${RULES.length} rules**: ${counts.pass} ✅ pass, ${counts.fail} ❌ fail, ${counts.skipped} ⏭ skipped, ` +
  `${counts['not checkable']} not checkable, ${counts.untested} without a test. ` +
  `**${passed + failed + skipped} tests**: ${passed} passed, ${failed} failed, ${skipped} skipped.`;
const notes = existsSync(notesPath) ? readFileSync(notesPath, 'utf8').trim() : '';

const document = [
  '# Conformance report',
  '',
  '<!-- Generated file: do not edit. -->',
  'Generated by `pnpm --filter @catalog/e2e run conformance` (the `conformance` turbo task of `pnpm test`),',
  'which runs the end-to-end suite of `tests/e2e` against both servers started from their build output',
  'and then `tests/e2e/scripts/conformance-report.ts`. Each rule of the specification (parts 2–9, as',
  'registered in `tests/e2e/conformance/rules.ts`) is listed with the tests whose titles name it and their',
  'result, or the reason it cannot be checked.',
  '',
  `Run: ${runDate}, Node ${process.version}.`,
  '',
  summary,
  '',
  ...(problems.length === 0 ? [] : ['**Problems:**', '', ...problems.map((problem) => `- ${problem}`), '']),
  sections.join('\n\n'),
  '',
  ...(unnamed.length === 0
    ? []
    : [
        '## Tests that name no rule',
        '',
        ...unnamed.map((test) => `- ${statusMark[test.status]} ${code(test.file)} ${cell(test.title)}`),
        '',
      ]),
  ...(notes === '' ? [] : [notes, '']),
].join('\n');

writeFileSync(outputPath, document);
process.stdout.write(
  `conformance report: ${relative(repoRoot, outputPath)}\n${summary.replaceAll('**', '')}\n`,
);
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `conformance: ${problem}`).join('\n')}\n`);
  process.exit(1);
}
