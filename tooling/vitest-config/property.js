// Runs a fast-check property within a run count and a time budget, prints the runs actually made,
// and fails when fewer than its floor of runs could be made: a loaded machine must not turn a
// property test into a pass on a handful of cases (nor into a time-out).
import fc from 'fast-check';
import { expect, inject } from 'vitest';

// The floor of runs is made whatever the load, within this hard limit; the budget bounds only the
// runs beyond it. A loaded machine then checks fewer extra cases instead of failing (or passing) on
// too few, and only a machine too busy to make the floor in 20 s fails the test.
const FLOOR_LIMIT_MS = 20_000;

/**
 * @param {import('fast-check').IRawProperty<unknown[]>} property
 * @param {import('./property.js').PropertyBudget} budget
 */
export async function checkProperty(property, budget) {
  const { heavy, seed: seedOverride } = inject('testSettings');
  const seed = seedOverride ?? budget.seed;
  const runs = heavy ? budget.heavyRuns : budget.runs;
  const budgetMs = heavy ? budget.heavyBudgetMs : budget.budgetMs;
  const floor = Math.min(budget.minRuns, runs);
  const started = performance.now();
  const phases = [
    { seed, numRuns: floor, limitMs: FLOOR_LIMIT_MS },
    // The runs beyond the floor take their cases from the next seed, so none repeats the floor's.
    { seed: seed + 1, numRuns: runs - floor, limitMs: () => budgetMs - (performance.now() - started) },
  ];
  let made = 0;
  let interrupted = false;
  for (const phase of phases) {
    const limitMs = typeof phase.limitMs === 'function' ? phase.limitMs() : phase.limitMs;
    if (phase.numRuns <= 0 || limitMs <= 0) {
      interrupted ||= phase.numRuns > 0;
      continue;
    }
    const details = await fc.check(property, {
      seed: phase.seed,
      numRuns: phase.numRuns,
      interruptAfterTimeLimit: limitMs,
      markInterruptAsFailure: false,
    });
    made += details.numRuns;
    interrupted ||= details.interrupted;
    if (details.failed && !(details.interrupted && details.counterexample === null)) {
      const report = (await fc.asyncDefaultReportMessage(details)) ?? '';
      // A counterexample can be large: the cause comes first, the report is cut.
      const cause =
        details.errorInstance instanceof Error
          ? details.errorInstance.message
          : String(details.errorInstance);
      throw new Error(`${cause}\n\n${report.slice(0, 4_000)}`, { cause: details.errorInstance });
    }
    if (made < floor) break;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const name = expect.getState().currentTestName ?? 'property';
  // biome-ignore lint/suspicious/noConsole: the runs made and the seed are the test's own report.
  console.info(
    `[property] ${name}: ${made} of ${runs} runs in ${seconds} s, seed ${seed} (TEST_SEED replays it)` +
      `${interrupted ? ', time budget reached' : ''}${heavy ? ', TEST_HEAVY' : ''}`,
  );
  if (made < floor) {
    throw new Error(
      `only ${made} runs within ${FLOOR_LIMIT_MS} ms, fewer than the ${floor} this property needs to ` +
        'mean anything: the machine was too busy to check it',
    );
  }
  return { runs: made, seed, interrupted };
}
