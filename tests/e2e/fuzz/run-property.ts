// Runs a fast-check property with the suite's seed and run count, prints the runs made, and fails the
// test with fast-check's report (seed and path to replay the counterexample). The count of runs bounds
// it, never a time budget: a loaded machine checks the same inputs, only more slowly, so the verdict
// does not depend on the machine's speed (the test's time-out is sized for a machine ten times slower).
import fc from 'fast-check';
import { report, settings } from '../support/settings.ts';

export async function runProperty<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { readonly runs?: number } = {},
): Promise<void> {
  const started = performance.now();
  const runs = options.runs ?? settings.fuzz.runs;
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed: settings.fuzz.seed,
    numRuns: runs,
    endOnFailure: true,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  report(
    `${name}: seed ${settings.fuzz.seed} (E2E_SEED replays it), ${details.numRuns} runs in ${seconds} s` +
      `${settings.heavy ? ', heavy' : ''}`,
  );
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    const fastCheckReport = await fc.asyncDefaultReportMessage(details);
    // The counterexample can be megabytes of generated input: the cause above already shows it, cut.
    throw new Error(`${cause}\n\n${(fastCheckReport ?? '').slice(0, 2_000)}`);
  }
}
