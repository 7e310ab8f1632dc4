// Figures of the `.bench/*.json` results files the benches write (the format scripts/performance-report.mjs
// reads), keyed so that the same figure of the same bench lines up across rounds and sides.

/** Suffix of the row holding a figure's same-run baseline. */
export const BASELINE_SUFFIX = ' · same-run baseline';

/**
 * The values of one results figure: its own, and its same-run baseline as a row of its own. A
 * baseline is compared too: some are the code under test by another path (the per-product writes
 * under the bulk load), the others (a precomputed-body server) are a control that shows the noise.
 */
function figureValues(figure) {
  const name = figure.metric === undefined ? figure.name : `${figure.name} (${figure.metric})`;
  const values = [{ name, value: figure.value }];
  if (typeof figure.baseline === 'number')
    values.push({ name: `${name}${BASELINE_SUFFIX}`, value: figure.baseline });
  return values.filter(({ value }) => typeof value === 'number' && Number.isFinite(value));
}

/**
 * The figures of one run of `bench` (`{ id, skipGroups? }`) from its results files, as
 * `[{ key, bench, group, name, unit, value }]`, keyed so that a figure lines up across rounds and sides.
 */
export function runFigures(bench, resultsFiles) {
  const skipped = new Set(bench.skipGroups ?? []);
  const seen = new Map();
  const out = [];
  for (const results of resultsFiles) {
    for (const figure of results.figures ?? []) {
      const group = figure.group ?? results.title ?? results.part ?? '';
      if (skipped.has(group)) continue;
      for (const { name, value } of figureValues(figure)) {
        const base = `${bench.id} | ${group} | ${name}`;
        // A results file may list the same name twice in a group (one per catalogue size): number them.
        const count = (seen.get(base) ?? 0) + 1;
        seen.set(base, count);
        const numbered = count === 1 ? name : `${name} #${count}`;
        out.push({
          key: `${bench.id} | ${group} | ${numbered}`,
          bench: bench.id,
          group,
          name: numbered,
          unit: figure.unit,
          value,
        });
      }
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
