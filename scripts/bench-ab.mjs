#!/usr/bin/env node
// A same-run A/B of the search and write benchmarks between two commits:
//   node scripts/bench-ab.mjs --base <rev> [--head <rev>] [--rounds N] [--products N]
//     [--seconds S] [--shape-seconds S] [--mix-queries N] [--benches id,id] [--dir DIR]
// Each commit gets a detached worktree under DIR (default .bench/ab, reused between runs), installed
// and built (so uncommitted changes are never measured: commit them first); then every round runs each bench on A and then on B (ABAB…), so both sides see the same
// machine and the same load drift. Each bench's `.bench/*.json` results are collected per run; the
// report (stdout and .bench/ab-report.md) gives per figure A's and B's medians, B/A and each side's
// round-to-round spread. Benches are found by package script (scripts/lib/bench-ab/benches.mjs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCHES, resolveBench } from './lib/bench-ab/benches.mjs';
import { collectRows, runFigures } from './lib/bench-ab/figures.mjs';
import { buildReport } from './lib/bench-ab/report.mjs';
import { prepareWorktree, resolveCommit, workspacePackages, worktreeOf } from './lib/bench-ab/sides.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const log = (line) => process.stderr.write(`bench-ab: ${line}\n`);
const loadAverage = () => loadavg().map((n) => Number(n.toFixed(2)));

/** The command line, checked once: unknown options and non-numbers are refused before anything runs. */
function readOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      base: { type: 'string' },
      head: { type: 'string', default: 'HEAD' },
      rounds: { type: 'string', default: '3' },
      products: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '10' },
      'shape-seconds': { type: 'string', default: '30' },
      'mix-queries': { type: 'string', default: '1000' },
      benches: { type: 'string', default: BENCHES.map((bench) => bench.id).join(',') },
      dir: { type: 'string', default: join(ROOT, '.bench', 'ab') },
    },
  });
  if (values.base === undefined) throw new Error('--base <rev> is required');
  const positive = (name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  const benchIds = values.benches.split(',');
  const unknown = benchIds.filter((id) => !BENCHES.some((bench) => bench.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown bench ${unknown.join(', ')}; known: ${BENCHES.map((b) => b.id).join(', ')}`);
  return {
    base: values.base,
    head: values.head,
    rounds: positive('rounds'),
    sizes: {
      BENCH_PRODUCTS: positive('products'),
      BENCH_SECONDS: positive('seconds'),
      BENCH_SHAPE_SECONDS: positive('shape-seconds'),
      BENCH_MIX_QUERIES: positive('mix-queries'),
    },
    benches: BENCHES.filter((bench) => benchIds.includes(bench.id)),
    dir: resolve(values.dir),
  };
}

/** Results files under `dir/.bench` written since `since` (ms): what the run just left there. */
function freshResults(dir, since) {
  const resultsDir = join(dir, '.bench');
  let names;
  try {
    names = readdirSync(resultsDir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map((name) => join(resultsDir, name))
    .filter((path) => statSync(path).mtimeMs >= since)
    .map((path) => JSON.parse(readFileSync(path, 'utf8')));
}

/**
 * Runs one bench on one side; its output goes to a log file. Each side has its own TMPDIR, so the
 * catalogues the store benches keep in the temporary directory between rounds are that side's own,
 * and BENCH_DATA_DIR is unset so that no database is shared between the sides.
 */
async function runBench({ side, found, env, logPath }) {
  const { BENCH_DATA_DIR: _shared, ...inherited } = process.env;
  const args =
    found.command === undefined
      ? ['--filter', found.pkg, 'run', found.script]
      : ['--filter', found.pkg, 'exec', 'sh', '-c', found.command];
  const out = createWriteStream(logPath);
  const started = Date.now();
  const child = spawn('pnpm', args, {
    cwd: side.dir,
    env: { ...inherited, ...env, TMPDIR: side.tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const [code] = await once(child, 'close');
  out.end();
  return { code, started, seconds: (Date.now() - started) / 1000 };
}

async function main() {
  const options = readOptions(process.argv.slice(2));
  const startLoad = loadAverage();
  mkdirSync(options.dir, { recursive: true });
  const sides = ['A', 'B'].map((name) => {
    const commit = resolveCommit(ROOT, name === 'A' ? options.base : options.head);
    const dir = worktreeOf(ROOT, options.dir, commit);
    const tmp = join(options.dir, `tmp-${name}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    return { name, commit, dir, tmp };
  });
  for (const dir of new Set(sides.map((side) => side.dir))) prepareWorktree(dir, log);
  const logs = join(options.dir, 'logs');
  mkdirSync(logs, { recursive: true });
  const env = Object.fromEntries(Object.entries(options.sizes).map(([name, value]) => [name, String(value)]));
  const runs = [];
  const figureRuns = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const bench of options.benches) {
      for (const side of sides) {
        const found = resolveBench(bench, workspacePackages(side.dir));
        if (found === null) {
          runs.push({ bench: bench.id, side: side.name, round, status: 'absent', seconds: Number.NaN });
          continue;
        }
        const via = `${found.pkg} ${found.script}${found.command === undefined ? '' : `: ${found.command}`}`;
        const logPath = join(logs, `round${round}-${side.name}-${bench.id}.log`);
        log(`round ${round}/${options.rounds}, ${side.name}: ${bench.id} (${via})`);
        const { code, started, seconds } = await runBench({ side, found, env, logPath });
        const ok = code === 0;
        if (!ok) log(`  ${bench.id} failed on ${side.name} (exit ${code}); see ${logPath}`);
        runs.push({ bench: bench.id, side: side.name, round, status: ok ? 'ok' : 'failed', seconds, via });
        if (ok)
          figureRuns.push({
            side: side.name,
            figures: runFigures(bench, freshResults(found.dir, started)),
          });
        log(`  ${seconds.toFixed(0)} s`);
      }
    }
  }
  for (const side of sides) rmSync(side.tmp, { recursive: true, force: true });
  const report = buildReport({
    base: sides[0].commit,
    head: sides[1].commit,
    rounds: options.rounds,
    sizes: options.sizes,
    loadAverage: { start: startLoad, end: loadAverage() },
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    benches: options.benches,
    runs,
    rows: collectRows(figureRuns),
  });
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(join(ROOT, '.bench', 'ab-report.md'), report);
  process.stdout.write(report);
}

await main();
