// Figures of the `.bench/*.json` results files the benches write (the format scripts/performance-report.mjs
// reads), keyed so that the same figure of the same bench lines up across rounds and sides.

/**
 * The figures of one run of `bench` (`{ id, skipGroups? }`) from its results files, as `[{ key, bench, group, name, unit,
 * value }]`. Only each figure's own value is kept: its same-run baseline measures something else
 * (a precomputed-body server, the engine without the pool), which the A/B does not compare.
 */
export function runFigures(bench, resultsFiles) {
  const skipped = new Set(bench.skipGroups ?? []);
  const seen = new Map();
  const out = [];
  for (const results of resultsFiles) {
    for (const figure of results.figures ?? []) {
      if (typeof figure.value !== 'number' || !Number.isFinite(figure.value)) continue;
      const group = figure.group ?? results.title ?? results.part ?? '';
      if (skipped.has(group)) continue;
      const name = figure.metric === undefined ? figure.name : `${figure.name} (${figure.metric})`;
      const base = `${bench.id} | ${group} | ${name}`;
      // A results file may list the same name twice in a group (one per catalogue size): number them.
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const key = count === 1 ? base : `${base} #${count}`;
      out.push({
        key,
        bench: bench.id,
        group,
        name: count === 1 ? name : `${name} #${count}`,
        unit: figure.unit,
        value: figure.value,
      });
    }
  }
  return out;
}

/**
 * Rows of the A/B table from every run's figures (`runs`: `[{ side: 'A' | 'B', figures }]`), in the
 * order figures first appeared: `{ bench, group, name, unit, a: number[], b: number[] }`.
 */
export function collectRows(runs) {
  const rows = new Map();
  for (const run of runs) {
    for (const figure of run.figures) {
      let row = rows.get(figure.key);
      if (row === undefined) {
        row = {
          bench: figure.bench,
          group: figure.group,
          name: figure.name,
          unit: figure.unit,
          a: [],
          b: [],
        };
        rows.set(figure.key, row);
      }
      (run.side === 'A' ? row.a : row.b).push(figure.value);
    }
  }
  return [...rows.values()];
}
