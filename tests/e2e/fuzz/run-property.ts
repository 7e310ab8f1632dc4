// Runs a fast-check property with the suite's seed, run count and time budget, prints the runs actually
// made, and fails the test with fast-check's report (seed and path to replay the counterexample), or
// when the time budget ran out before the floor of runs was made (a property that checked a handful of
// inputs has not checked what its name says).
import fc from 'fast-check';
import { report, settings } from '../support/settings.ts';

export async function runProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { readonly runs?: number; readonly budgetMs?: number; readonly minRuns?: number } = {},
): Promise<void> {
  const started = performance.now();
  const runs = options.runs ?? settings.fuzz.runs;
  const minRuns = Math.min(options.minRuns ?? settings.fuzz.minRuns, runs);
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed: settings.fuzz.seed,
    numRuns: runs,
    interruptAfterTimeLimit: options.budgetMs ?? settings.fuzz.timeBudgetMs,
    markInterruptAsFailure: false,
    endOnFailure: true,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  report(
    `${name}: seed ${settings.fuzz.seed} (E2E_SEED replays it), ${details.numRuns} of ${runs} runs in ${seconds} s` +
      `${details.interrupted ? ` (time budget reached; floor ${minRuns})` : ''}${settings.heavy ? ', heavy' : ''}`,
  );
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const fastCheckReport = await fc.asyncDefaultReportMessage(details);
    // The counterexample can be megabytes of generated input: the cause above already shows it, cut.
    throw new Error(`${cause}\n\n${(fastCheckReport ?? '').slice(0, 2_000)}`);
  }
  if (details.numRuns < minRuns)
    throw new Error(
      `${name}: only ${details.numRuns} runs in the ${seconds} s budget, below the floor of ${minRuns}: ` +
        'the property checked too few inputs (a machine this loaded cannot run the fuzz suite)',
    );
}
