// Runs a fast-check property with the suite's seed, run count and time budget, prints what ran, and
// fails the test with fast-check's report (seed and path to replay the counterexample).
import fc from 'fast-check';
import { report, settings } from '../support/settings.ts';

export async function runProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { readonly runs?: number; readonly budgetMs?: number } = {},
): Promise<void> {
  const started = performance.now();
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed: settings.fuzz.seed,
    numRuns: options.runs ?? settings.fuzz.runs,
    interruptAfterTimeLimit: options.budgetMs ?? settings.fuzz.timeBudgetMs,
    markInterruptAsFailure: false,
    endOnFailure: true,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  report(
    `${name}: seed ${settings.fuzz.seed} (E2E_SEED replays it), ${details.numRuns} runs in ${seconds} s` +
      `${details.interrupted ? ' (time budget reached)' : ''}${settings.heavy ? ', heavy' : ''}`,
  );
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const fastCheckReport = await fc.asyncDefaultReportMessage(details);
    // The counterexample can be megabytes of generated input: the cause above already shows it, cut.
    throw new Error(`${cause}\n\n${(fastCheckReport ?? '').slice(0, 2_000)}`);
  }
}
