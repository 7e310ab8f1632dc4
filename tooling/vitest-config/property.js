// Runs a fast-check property within a run count and a time budget, prints the runs actually made,
// and fails when the budget ran out before enough runs: a loaded machine must not turn a property
// test into a pass on a handful of cases (nor into a time-out).
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
  const budgetMs = heavy ? budget.heavyBudgetMs : budget.budgetMs;
  const started = performance.now();
  const details = await fc.check(property, {
    seed,
    numRuns: runs,
    interruptAfterTimeLimit: budgetMs,
    markInterruptAsFailure: false,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const name = expect.getState().currentTestName ?? 'property';
  // biome-ignore lint/suspicious/noConsole: the runs made and the seed are the test's own report.
  console.info(
    `[property] ${name}: ${details.numRuns} of ${runs} runs in ${seconds} s, seed ${seed} (TEST_SEED replays it)` +
      `${details.interrupted ? ', time budget reached' : ''}${heavy ? ', TEST_HEAVY' : ''}`,
  );
  if (details.failed) {
    const report = (await fc.asyncDefaultReportMessage(details)) ?? '';
    // A counterexample can be large: the cause comes first, the report is cut.
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(`${cause}\n\n${report.slice(0, 4_000)}`, { cause: details.errorInstance });
  }
  if (details.numRuns < budget.minRuns) {
    throw new Error(
      `only ${details.numRuns} runs within the ${budgetMs} ms budget, fewer than the ${budget.minRuns} ` +
        'this property needs to mean anything: the machine was too busy to check it',
    );
  }
  return { runs: details.numRuns, seed, interrupted: details.interrupted };
}
