// Writes docs/conformance.md from the last run of the e2e suite on each engine and on the cluster
// (E2E_ENGINE: one results-<engine>.json each): every rule of the registry (conformance/rules.ts), the
// tests that name it (rule ids at the start of a test's title), their result in each run, or the
// reason the rule cannot be checked. Run with Node 24 (type stripping):
//   node scripts/conformance-report.ts [--check] [results-directory] [output.md]
// Exits non-zero when a rule has neither a test nor a reason, when a test names an unknown rule id,
// when a test failed or a test file could not run on either engine, or when an engine has no results.
// --check (what `pnpm run conformance` passes) also exits non-zero when the committed report differs
// from this run in anything below its run header, so a report that describes older code cannot go
// unnoticed: the run header (date, commit, Node, duration) changes every run and is not compared.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES, type Rule, ruleIdsOf, SECTIONS } from '../conformance/rules.ts';
import { ENGINES, type Engine, settings } from '../support/settings.ts';

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
  readonly endTime?: number;
  readonly assertionResults: readonly AssertionResult[];
}
interface VitestReport {
  readonly startTime?: number;
  readonly testResults: readonly FileResult[];
}

/** One test, by file and full name, with its result on each engine it ran on. */
interface TestRef {
  readonly file: string;
  readonly title: string;
  readonly statuses: Map<Engine, Status>;
}

const ENGINE_NAMES: Readonly<Record<Engine, string>> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  cluster: 'the cluster',
};
/** The runs of the whole suite on one server pair; the cluster run has only what instances share. */
const PAIR_ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
const [resultsArg, outputArg] = args.filter((arg) => arg !== '--check');
const resultsDir = resultsArg ?? fileURLToPath(new URL('../.vitest', import.meta.url));
const outputPath = outputArg ?? fileURLToPath(new URL('../../../docs/conformance.md', import.meta.url));
/** The one command that runs the suite and rewrites the report. */
const REGENERATE = 'pnpm --filter @catalog/e2e run conformance';
/** Everything above this line is the run header, left out of the --check comparison. */
const HEADER_END =
  '<!-- End of the run header: everything below is compared by the --check of the test command. -->';
const notesPath = fileURLToPath(new URL('../conformance/notes.md', import.meta.url));

const problems: string[] = [];

function readReport(engine: Engine): VitestReport | undefined {
  const resultsPath = join(resultsDir, `results-${engine}.json`);
  if (!existsSync(resultsPath)) {
    problems.push(
      `no test results for ${ENGINE_NAMES[engine]} at ${relative(repoRoot, resultsPath)}: run the suite first (pnpm run conformance)`,
    );
    return undefined;
  }
  return JSON.parse(readFileSync(resultsPath, 'utf8')) as VitestReport;
}

const reports = new Map(
  ENGINES.flatMap((engine) => {
    const report = readReport(engine);
    return report === undefined ? [] : [[engine, report] as const];
  }),
);
const seenIds = new Set<string>();
for (const rule of RULES) {
  if (seenIds.has(rule.id)) problems.push(`rule id [${rule.id}] is registered twice`);
  seenIds.add(rule.id);
  if (!SECTIONS.some(([section]) => section === rule.section))
    problems.push(`rule [${rule.id}] belongs to no section of the report (${rule.section})`);
}
const counted = new Map(ENGINES.map((engine) => [engine, { passed: 0, failed: 0, skipped: 0 }]));
// Every test once, by file then full name, whichever engines it ran on.
const tests = new Map<string, TestRef>();
for (const [engine, report] of reports) {
  const count = counted.get(engine) ?? { passed: 0, failed: 0, skipped: 0 };
  for (const file of report.testResults) {
    // Relative to the package the results came from (their directory's parent), so a report can be
    // written from another clone's results and still name files as this package does.
    const fileName = relative(dirname(resultsDir), file.name);
    if (file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed')) {
      problems.push(
        `${fileName} failed outside its tests on ${ENGINE_NAMES[engine]}: ${(file.message ?? '').split('\n')[0]}`,
      );
    }
    for (const test of file.assertionResults) {
      if (test.status === 'passed') count.passed += 1;
      else if (test.status === 'failed') {
        count.failed += 1;
        problems.push(`${fileName}: failed on ${ENGINE_NAMES[engine]}: ${test.fullName}`);
      } else count.skipped += 1;
      const key = `${fileName}\u0000${test.fullName}`;
      const ref = tests.get(key) ?? { file: fileName, title: test.title, statuses: new Map() };
      ref.statuses.set(engine, test.status);
      tests.set(key, ref);
    }
  }
}
const failed = [...counted.values()].reduce((sum, count) => sum + count.failed, 0);

/** A test's one result: failed on any engine is failed; else passed on any is passed. */
function statusOf(test: TestRef): Status {
  const statuses = [...test.statuses.values()];
  if (statuses.includes('failed')) return 'failed';
  if (statuses.includes('passed')) return 'passed';
  return statuses[0] ?? 'skipped';
}

const testsByRule = new Map<string, TestRef[]>();
const unnamed: TestRef[] = [];
// vitest lists files in the order they finished, which varies from run to run: the report lists
// them by name (a file's tests in their own order), so that two runs of the same tests write the
// same report.
const byFileName = [...tests.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
for (const ref of byFileName) {
  const ids = ruleIdsOf(ref.title);
  if (ids.length === 0) unnamed.push(ref);
  for (const id of ids) {
    if (!RULES.some((rule) => rule.id === id)) {
      problems.push(`${ref.file}: "${ref.title}" names the unknown rule id [${id}]`);
      continue;
    }
    testsByRule.set(id, [...(testsByRule.get(id) ?? []), ref]);
  }
}
if (failed > 0) problems.unshift(`${failed} test(s) failed`);

type Verdict = 'pass' | 'fail' | 'skipped' | 'not checkable' | 'untested';

function verdictOf(rule: Rule, tests: readonly TestRef[]): Verdict {
  if (tests.some((test) => statusOf(test) === 'failed')) return 'fail';
  if (tests.some((test) => statusOf(test) === 'passed')) return 'pass';
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

function resultCell(rule: Rule, verdict: Verdict, tests: readonly TestRef[]): string {
  switch (verdict) {
    case 'pass':
      return tests.some((test) => test.statuses.get('cluster') === 'passed')
        ? '✅ pass, on the cluster too'
        : '✅ pass';
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

/**
 * Nothing for a test with one result on both engines; else the engine it ran on alone, or each run's
 * result when they differ; and whether it ran on the cluster too, or there alone.
 */
function enginesNote(test: TestRef): string {
  const ran = ENGINES.filter((engine) => test.statuses.has(engine));
  if (new Set(test.statuses.values()).size > 1) {
    const results = ran.map(
      (engine) => `${ENGINE_NAMES[engine]} ${statusMark[test.statuses.get(engine) ?? 'skipped']}`,
    );
    return ` (${results.join(', ')})`;
  }
  const pairRuns = PAIR_ENGINES.filter((engine) => test.statuses.has(engine));
  const onCluster = test.statuses.has('cluster');
  if (pairRuns.length === 0) return onCluster ? ' (cluster only)' : '';
  const pairReports = PAIR_ENGINES.filter((engine) => reports.has(engine)).length;
  const alone =
    pairRuns.length < pairReports
      ? `${pairRuns.map((engine) => ENGINE_NAMES[engine]).join(', ')} only`
      : undefined;
  if (alone !== undefined) return onCluster ? ` (${alone}, and the cluster)` : ` (${alone})`;
  return onCluster ? ' (also on the cluster)' : '';
}

function testsCell(tests: readonly TestRef[]): string {
  if (tests.length === 0) return '—';
  return tests
    .map((test) => {
      const words = test.title.replace(/^(\s*\[[^\]]+\])+\s*/, '');
      return `${statusMark[statusOf(test)]} ${code(test.file.replace(/\.test\.ts$/, ''))} ${words}${enginesNote(test)}`;
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
    return `| ${cell(rule.id)} | ${cell(rule.text)} | ${cell(testsCell(tests))} | ${cell(resultCell(rule, verdict, tests))} |`;
  });
  sections.push(
    [`## ${section} ${title}`, '', '| rule | text | test(s) | result |', '|---|---|---|---|', ...rows].join(
      '\n',
    ),
  );
}

const reportPath = () => relative(repoRoot, outputPath).split('\\').join('/');

/** The commit the suite ran against, and whether the tree had changes on top of it. */
function commitOf(): string {
  try {
    const git = (...gitArgs: string[]) =>
      execFileSync('git', gitArgs, {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const head = git('rev-parse', '--short=12', 'HEAD');
    // The report itself is rewritten by every run: it does not make the tree it describes dirty.
    const changes = git(
      'status',
      '--porcelain',
      '--untracked-files=no',
      '--',
      '.',
      `:(exclude)${reportPath()}`,
    );
    return changes === '' ? head : `${head} with uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** The committed copy of the report (the file as it stands when git is not there). */
function committedReport(): string | undefined {
  try {
    return execFileSync('git', ['show', `HEAD:${reportPath()}`], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return existsSync(outputPath) ? readFileSync(outputPath, 'utf8') : undefined;
  }
}

const belowHeader = (text: string) => {
  const end = text.indexOf(HEADER_END);
  return end === -1 ? undefined : text.slice(end + HEADER_END.length);
};

const runDate = new Date(reports.values().next().value?.startTime ?? Date.now()).toISOString();
/** How long each engine's run took. */
const runSeconds = [...reports]
  .map(([engine, report]) => {
    const end = Math.max(0, ...report.testResults.map((file) => file.endTime ?? 0));
    const seconds =
      report.startTime === undefined || end === 0
        ? 'duration unknown'
        : `${Math.round((end - report.startTime) / 1000)} s`;
    return `${ENGINE_NAMES[engine]} ${seconds}`;
  })
  .join(', ');
const testCounts = [...counted]
  .map(([engine, { passed, failed: failures, skipped }]) => {
    const total = passed + failures + skipped;
    return `**${total} tests on ${ENGINE_NAMES[engine]}**: ${passed} passed, ${failures} failed, ${skipped} skipped`;
  })
  .join('; ');
const summary =
  `**${RULES.length} rules**: ${counts.pass} ✅ pass, ${counts.fail} ❌ fail, ${counts.skipped} ⏭ skipped, ` +
  `${counts['not checkable']} not checkable, ${counts.untested} without a test. ${testCounts}.`;
const notes = existsSync(notesPath) ? readFileSync(notesPath, 'utf8').trim() : '';

const document = [
  '# Conformance report',
  '',
  '<!-- Generated file: do not edit. -->',
  'Generated by `pnpm --filter @catalog/e2e run conformance` (the `conformance` turbo task of `pnpm test`),',
  'which runs the end-to-end suite of `tests/e2e` against both servers started from their build output,',
  'once on each engine (`E2E_ENGINE`: the embedded SQLite, then PostgreSQL), then on the cluster',
  '(`E2E_ENGINE=cluster`: two instances of each server behind nginx, on PostgreSQL and Redis; the cluster',
  'suite and the limits of spec 8), and then `tests/e2e/scripts/conformance-report.ts`. Each rule of the',
  'specification (parts 2–9, as registered in `tests/e2e/conformance/rules.ts`) is listed with the tests',
  'whose titles name it and their result, or the reason it cannot be checked. A test ran on both engines',
  'with the same result unless its line says otherwise (the engine it ran on alone, or each run’s result);',
  'its line also says when it ran on the cluster, or there only. Its mark is the worst of its results.',
  'The test command fails when the committed copy differs from its run in anything below the run header:',
  'regenerate it with `pnpm --filter @catalog/e2e run conformance` (builds first: `pnpm build`) and commit it.',
  '',
  `Run: ${runDate}, commit ${commitOf()}, Node ${process.version}, ${runSeconds}, ` +
    `${settings.heavy ? 'E2E_HEAVY' : 'default settings'}.`,
  '',
  HEADER_END,
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
        ...unnamed.map(
          (test) =>
            `- ${statusMark[statusOf(test)]} ${code(test.file)} ${cell(test.title)}${enginesNote(test)}`,
        ),
        '',
      ]),
  ...(notes === '' ? [] : [notes, '']),
].join('\n');

const committed = check ? committedReport() : undefined;
writeFileSync(outputPath, document);
process.stdout.write(
  `conformance report: ${relative(repoRoot, outputPath)}\n${summary.replaceAll('**', '')}\n`,
);
if (check && problems.length === 0) {
  const reportName = relative(repoRoot, outputPath);
  if (settings.heavy) {
    // Heavy-only tests pass here and are skipped in the default run the committed copy records.
    process.stdout.write(`conformance: ${reportName} not compared with the committed copy (E2E_HEAVY run)\n`);
  } else if (committed === undefined || belowHeader(committed) !== belowHeader(document)) {
    const was = committed === undefined ? [] : (belowHeader(committed) ?? '').split('\n');
    const now = (belowHeader(document) ?? '').split('\n');
    const differs = now.findIndex((text, index) => text !== was[index]);
    const line =
      (differs === -1 ? now.length : differs) + (document.split(HEADER_END)[0] ?? '').split('\n').length;
    const where =
      committed === undefined
        ? 'there is no committed copy'
        : belowHeader(committed) === undefined
          ? 'the committed copy has no run-header marker (an older format)'
          : `first difference at line ${line} of this run's report: ${JSON.stringify((now[differs] ?? '(end of file)').slice(0, 160))}`;
    problems.push(
      `${reportName} is stale: the committed report does not describe this run (${where}). ` +
        `The file now holds this run's report; review and commit it. Regenerate with: ${REGENERATE}`,
    );
  }
}
if (problems.length > 0) {
  process.stderr.write(`${problems.map((problem) => `conformance: ${problem}`).join('\n')}\n`);
  process.exit(1);
}
