// The servers under test run from their build output (turbo's `conformance` task builds them first);
// the test code itself resolves workspace packages to their sources like every other suite.
//
// One run is one engine (E2E_ENGINE, support/settings.ts); the test command runs SQLite, then
// PostgreSQL, each writing its own results file for the conformance report.
import { packageTestConfig } from '@catalog/vitest-config';
import { settings } from './support/settings.ts';

const postgres = settings.engine === 'postgres';

export default packageTestConfig({
  include: [
    'conformance/**/*.test.ts',
    'fuzz/**/*.test.ts',
    'faults/**/*.test.ts',
    'operator/**/*.test.ts',
    // SQLite only: the browser suite is the slowest file (about two minutes), and what the engine
    // decides under it (sign-in, the client-management routes) the other suites check on both engines.
    ...(postgres ? [] : ['console/**/*.test.ts']),
  ],
  outputFile: { json: `.vitest/results-${settings.engine}.json` },
  globalSetup: postgres ? ['support/postgres-preflight.ts'] : [],
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // Each file brings up its own pair of servers; running files one at a time keeps CPU-bound
  // rate-limit and timing checks honest.
  fileParallelism: false,
});
