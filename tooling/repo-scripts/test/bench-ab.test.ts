import { describe, expect, it } from 'vitest';
import { BENCHES, resolveBench } from '../../../scripts/lib/bench-ab/benches.mjs';
import { collectRows, runFigures } from '../../../scripts/lib/bench-ab/figures.mjs';
import { benchSummary, buildReport, rowCells, sideStatus } from '../../../scripts/lib/bench-ab/report.mjs';
import { median, spread } from '../../../scripts/lib/bench-ab/statistics.mjs';

const bench = (id: string) => {
  const found = BENCHES.find((candidate: { id: string }) => candidate.id === id);
  if (found === undefined) throw new Error(`no bench ${id}`);
  return found;
};

describe('scripts/bench-ab.mjs: median and spread', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('gives the spread as (max − min) / median, and none for a single round', () => {
    expect(spread([90, 100, 110])).toBeCloseTo(0.2);
    expect(spread([100])).toBeNaN();
  });
});

describe('scripts/bench-ab.mjs: finding a bench by package script', () => {
  const store = (scripts: Record<string, string>) =>
    new Map([['@catalog/store', { dir: '/side/packages/catalog-store', scripts }]]);

  it("runs only the search segment of the store's combined bench script", () => {
    const found = resolveBench(
      bench('store-search'),
      store({
        bench: 'node bench/bulk-load-bench.ts; load=$?; node --expose-gc bench/search-bench.ts; search=$?',
      }),
    );
    expect(found).toEqual({
      pkg: '@catalog/store',
      dir: '/side/packages/catalog-store',
      script: 'bench',
      command: 'node --expose-gc bench/search-bench.ts',
    });
  });

  it('prefers the search package when search has moved there, and reports a bench missing on a side as null', () => {
    const packages = new Map([
      ['@catalog/store', { dir: '/s', scripts: { bench: 'node --expose-gc bench/search-bench.ts' } }],
      ['@catalog/search', { dir: '/q', scripts: { 'bench:search': 'node bench/search-bench.ts' } }],
    ]);
    expect(resolveBench(bench('store-search'), packages)).toMatchObject({
      pkg: '@catalog/search',
      command: undefined,
    });
    expect(resolveBench(bench('store-load'), store({ bench: 'node bench/search-bench.ts' }))).toBeNull();
  });
});

describe('scripts/bench-ab.mjs: figures, rows and the report', () => {
  const results = (value: number) => [
    {
      part: 'load',
      figures: [
        { name: 'seed', value, unit: 'products/s', baseline: 10, ratio: value / 10, group: '2,000 products' },
        { name: 'seed', value: value * 2, unit: 'products/s', group: '2,000 products' },
        { name: 'c1', value: 1.5, unit: 'ms', group: 'query', metric: 'p50' },
      ],
    },
  ];

  it('keys each figure by bench, group and name (with its metric), with its baseline as a row of its own, numbering a repeated name', () => {
    expect(
      runFigures(bench('store-load'), results(100)).map((figure: { key: string }) => figure.key),
    ).toEqual([
      'store-load | 2,000 products | seed',
      'store-load | 2,000 products | seed · same-run baseline',
      'store-load | 2,000 products | seed #2',
      'store-load | query | c1 (p50)',
    ]);
  });

  it("leaves out the API bench's list of slowest shape classes, which names other classes each run", () => {
    const shapes = [
      {
        figures: [
          { name: 'slowest class p99', value: 30, unit: 'ms', group: 'Query shapes at c1: summary' },
          {
            name: 'rare term',
            value: 30,
            unit: 'ms',
            group: 'Query shapes at c1: the slowest classes (ms)',
            metric: 'p99',
          },
        ],
      },
    ];
    expect(runFigures(bench('api-search'), shapes).map((figure: { name: string }) => figure.name)).toEqual([
      'slowest class p99',
    ]);
  });

  it("collects each side's values of a figure across rounds", () => {
    const rows = collectRows([
      { side: 'A', figures: runFigures(bench('store-load'), results(100)) },
      { side: 'B', figures: runFigures(bench('store-load'), results(90)) },
      { side: 'A', figures: runFigures(bench('store-load'), results(110)) },
    ]);
    expect(rows[0]).toEqual({
      bench: 'store-load',
      group: '2,000 products',
      name: 'seed',
      unit: 'products/s',
      a: [100, 110],
      b: [90],
    });
  });

  it('flags a B/A further from 1 than the larger spread, and not one within it', () => {
    const row = { bench: 'x', group: 'g', name: 'rate', unit: '/s', a: [100, 104, 102], b: [80, 81, 82] };
    expect(rowCells(row)).toEqual(['rate', '/s', '102', '81', '0.7941 ⚠', '3.9%', '2.5%', '3/3']);
    expect(rowCells({ ...row, b: [98, 106, 101] })[4]).toBe('0.9902');
  });

  it("summarises a bench by the median B/A of its times and of its rates, leaving sizes and one side's figures out", () => {
    const row = (name: string, unit: string, a: number[], b: number[]) => ({
      bench: 'x',
      group: 'g',
      name,
      unit,
      a,
      b,
    });
    const rows = [
      row('p50', 'ms', [10, 10], [12, 12]),
      row('p99', 'ms', [9, 11], [10.5, 11.5]),
      row('p95', 'ms', [10, 10], [13, 13]),
      row('rate', 'products/s', [100, 100], [90, 90]),
      row('file', 'MB', [30, 30], [60, 60]),
      row('only on A', 'ms', [1], []),
    ];
    expect(benchSummary(rows)).toEqual(['5', '1.2', '0.9', '4']);
  });

  it('says a bench was not run on a side where it does not exist, and counts failed rounds', () => {
    expect(sideStatus([{ status: 'absent', seconds: Number.NaN }])).toBe('not run on this side');
    expect(
      sideStatus([
        { status: 'ok', seconds: 10, via: '@catalog/store bench:load' },
        { status: 'failed', seconds: 12, via: '@catalog/store bench:load' },
      ]),
    ).toBe('1/2 rounds (1 failed), median 11 s, `@catalog/store bench:load`');
  });

  it('names both commits, the rounds, the sizes and the load, with a table per bench and group', () => {
    const commit = (sha: string) => ({ label: sha.slice(0, 7), sha, subject: 'a commit' });
    const report = buildReport({
      base: commit('1111111111111'),
      head: commit('2222222222222'),
      rounds: 2,
      sizes: { BENCH_PRODUCTS: 2000 },
      loadAverage: { start: [1, 2, 3], end: [4, 5, 6] },
      machine: 'test CPU, 2 CPUs, 4 GiB',
      benches: [bench('store-load'), bench('store-search')],
      runs: [
        {
          bench: 'store-load',
          side: 'A',
          round: 1,
          status: 'ok',
          seconds: 5,
          via: '@catalog/store bench:load',
        },
        {
          bench: 'store-load',
          side: 'B',
          round: 1,
          status: 'ok',
          seconds: 6,
          via: '@catalog/store bench:load',
        },
        { bench: 'store-search', side: 'A', round: 1, status: 'ok', seconds: 5, via: '@catalog/store bench' },
        { bench: 'store-search', side: 'B', round: 1, status: 'absent', seconds: Number.NaN },
      ],
      rows: [
        { bench: 'store-load', group: '2,000 products', name: 'seed', unit: 'products/s', a: [100], b: [95] },
      ],
    });
    expect(report).toContain('- A: `1111111` = 1111111111 (a commit)');
    expect(report).toContain('- 2 rounds, each running every bench on A then on B');
    expect(report).toContain('BENCH_PRODUCTS=2000');
    expect(report).toContain('at start 1 / 2 / 3, at end 4 / 5 / 6');
    expect(report).toContain(
      '| store-search | search | 1/1 rounds, median 5 s, `@catalog/store bench` | not run on this side |',
    );
    expect(report).toContain('| seed | products/s | 100 | 95 | 0.95 | — | — | 1/1 |');
  });
});
