// The Markdown report of an A/B: which commits, how many rounds, at what sizes and load, how each
// bench ran on each side, and per figure A's and B's medians, B/A and the round-to-round spread of
// each side, so that a ratio can be read against the noise seen on the same side.
import { median, spread } from './statistics.mjs';

const number = (value) => (Number.isFinite(value) ? String(Number(value.toPrecision(4))) : '—');
const percent = (value) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : '—');
const cell = (text) => String(text).replaceAll('|', '\\|');

/**
 * One table row's cells. `noise` is the larger of the two spreads: a B/A further from 1 than that is
 * flagged, since the rounds of one side never differed that much.
 */
export function rowCells(row) {
  const a = median(row.a);
  const b = median(row.b);
  const ratio = b / a;
  const spreadA = spread(row.a);
  const spreadB = spread(row.b);
  const noise = Math.max(spreadA, spreadB);
  const beyond = Number.isFinite(ratio) && Number.isFinite(noise) && Math.abs(ratio - 1) > noise;
  return [
    row.name,
    row.unit ?? '',
    number(a),
    number(b),
    `${number(ratio)}${beyond ? ' ⚠' : ''}`,
    percent(spreadA),
    percent(spreadB),
    `${row.a.length}/${row.b.length}`,
  ];
}

/** Whether a larger value of `unit` is better ('rate'), worse ('time'), or neither (sizes, counts). */
export function unitKind(unit) {
  if (unit === undefined) return 'other';
  if (unit.includes('/s')) return 'rate';
  return unit === 'ms' || unit === 's' ? 'time' : 'other';
}

/**
 * One bench's summary cells: how many figures both sides have, the median B/A of its times and of
 * its rates, and how many rows were flagged beyond noise, so a regression shows before the tables.
 */
export function benchSummary(rows) {
  const compared = rows.filter((row) => row.a.length > 0 && row.b.length > 0);
  const ratios = (kind) =>
    compared.filter((row) => unitKind(row.unit) === kind).map((row) => median(row.b) / median(row.a));
  const flagged = compared.filter((row) => rowCells(row)[4].endsWith('⚠')).length;
  return [
    String(compared.length),
    number(median(ratios('time'))),
    number(median(ratios('rate'))),
    String(flagged),
  ];
}

const TABLE_HEAD = [
  '| Figure | Unit | A median | B median | B/A | A spread | B spread | Rounds A/B |',
  '|---|---|--:|--:|--:|--:|--:|--:|',
];

/** A bench's status on one side, from its runs there: `[{ status: 'ok' | 'failed' | 'absent', seconds, via }]`. */
export function sideStatus(runs) {
  if (runs.length === 0 || runs.every((run) => run.status === 'absent')) return 'not run on this side';
  const ok = runs.filter((run) => run.status === 'ok');
  const failed = runs.length - ok.length;
  const seconds = median(runs.map((run) => run.seconds));
  const via = runs[0].via;
  return `${ok.length}/${runs.length} rounds${failed > 0 ? ` (${failed} failed)` : ''}, median ${Math.round(seconds)} s, \`${via}\``;
}

/**
 * The report. `ab`: `{ base, head: { label, sha, subject }, rounds, sizes: { name: value },
 * loadAverage: { start, end }, machine, benches: [{ id, path, title }],
 * runs: [{ bench, side, round, status, seconds, via }], rows (from collectRows) }`.
 */
export function buildReport(ab) {
  const lines = [
    '# Same-run A/B of the search and write benchmarks',
    '',
    `- A: \`${ab.base.label}\` = ${ab.base.sha.slice(0, 10)} (${ab.base.subject.slice(0, 100)})`,
    `- B: \`${ab.head.label}\` = ${ab.head.sha.slice(0, 10)} (${ab.head.subject.slice(0, 100)})`,
    `- ${ab.rounds} round${ab.rounds === 1 ? '' : 's'}, each running every bench on A then on B (ABAB…) on the same machine: ${ab.machine}`,
    `- Sizes: ${Object.entries(ab.sizes)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')}`,
    `- Load average (1, 5, 15 min) at start ${ab.loadAverage.start.join(' / ')}, at end ${ab.loadAverage.end.join(' / ')}`,
    '',
    "B/A is B's median over A's: above 1 is better for rates (/s), worse for times and sizes. A spread is",
    "(max − min) / median over that side's rounds; ⚠ marks a B/A further from 1 than the larger spread.",
    '',
    '| Bench | Path | A | B |',
    '|---|---|---|---|',
  ];
  for (const bench of ab.benches) {
    const of = (side) => ab.runs.filter((run) => run.bench === bench.id && run.side === side);
    lines.push(
      `| ${bench.id} | ${bench.path} | ${cell(sideStatus(of('A')))} | ${cell(sideStatus(of('B')))} |`,
    );
  }
  lines.push(
    '',
    'Per bench, the median B/A of its times (ms, s; below 1 is faster) and of its rates (/s; above 1 is faster):',
    '',
    '| Bench | Figures on both sides | Times: median B/A | Rates: median B/A | Rows ⚠ |',
    '|---|--:|--:|--:|--:|',
  );
  for (const bench of ab.benches) {
    const cells = benchSummary(ab.rows.filter((row) => row.bench === bench.id));
    lines.push(`| ${bench.id} | ${cells.join(' | ')} |`);
  }
  for (const path of ['search', 'write']) {
    const benches = ab.benches.filter((bench) => bench.path === path);
    if (benches.length === 0) continue;
    lines.push('', `## ${path === 'search' ? 'Search path' : 'Write path'}`);
    for (const bench of benches) {
      const rows = ab.rows.filter((row) => row.bench === bench.id);
      lines.push('', `### ${bench.id}: ${bench.title}`);
      if (rows.length === 0) {
        lines.push('', 'No figures (see the status above).');
        continue;
      }
      let group;
      for (const row of rows) {
        if (row.group !== group) {
          group = row.group;
          lines.push('', `${group}`, '', ...TABLE_HEAD);
        }
        lines.push(`| ${rowCells(row).map(cell).join(' | ')} |`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}
