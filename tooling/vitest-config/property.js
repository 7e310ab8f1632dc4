// Runs a fast-check property a fixed number of times, prints the runs and the seed, and fails with
// fast-check's report. The count of runs bounds it, never a time budget: a loaded machine checks the
// same cases, only more slowly, so the verdict does not depend on the machine's speed (the test's
// time-out, sized for a machine ten times slower, is what bounds the wait).
import fc from 'fast-check';
import { expect, inject } from 'vitest';

/**
 * @param {import('fast-check').IRawProperty<unknown[]>} property
 * @param {import('./property.js').PropertyBudget} budget
 */
export async function checkProperty(property, budget) {
  const { heavy, seed: seedOverride } = inject('testSettings');
  const seed = seedOverride ?? budget.seed;
  const runs = heavy ? budget.heavyRuns : budget.runs;
  const started = performance.now();
  const details = await fc.check(property, { seed, numRuns: runs });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const name = expect.getState().currentTestName ?? 'property';
  // biome-ignore lint/suspicious/noConsole: the runs made and the seed are the test's own report.
  console.info(
    `[property] ${name}: ${details.numRuns} runs in ${seconds} s, seed ${seed} (TEST_SEED replays it)` +
      `${heavy ? ', TEST_HEAVY' : ''}`,
  );
  if (details.failed) {
    const report = (await fc.asyncDefaultReportMessage(details)) ?? '';
    // A counterexample can be large: the cause comes first, the report is cut.
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${cause}\n\n${report.slice(0, 4_000)}`, { cause: details.errorInstance });
  }
  return { runs: details.numRuns, seed };
}
