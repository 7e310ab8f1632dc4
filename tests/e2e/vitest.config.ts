// The servers under test run from their build output (turbo's `conformance` task builds them first);
// the test code itself resolves workspace packages to their sources like every other suite.
//
// One run is one engine (E2E_ENGINE, support/settings.ts); the test command runs SQLite, PostgreSQL,
// then the cluster, each writing its own results file for the conformance report.
import { packageTestConfig } from '@catalog/vitest-config';
import { REDIS_RUN_PREFIX_SETUP } from '@catalog/vitest-config/redis-run-prefix';
import { settings } from './support/settings.ts';

const { engine } = settings;

/**
 * The cluster run is the cluster suite, and the limits of spec 8 (conformance/limits.test.ts, whose
 * stacks are then clusters): what several instances must share. The rest of the suite checks one
 * server pair's behaviour, which the cluster's instances run unchanged.
 */
const clusterFiles = ['cluster/**/*.test.ts', 'conformance/limits.test.ts'];
const pairFiles = [
  'conformance/**/*.test.ts',
  'fuzz/**/*.test.ts',
  'faults/**/*.test.ts',
  'operator/**/*.test.ts',
  'webhooks/**/*.test.ts',
  // SQLite only: the browser suite is the slowest file (about two minutes), and what the engine
  // decides under it (sign-in, the client-management routes) the other suites check on both engines.
  ...(engine === 'sqlite' ? ['console/**/*.test.ts'] : []),
];

export default packageTestConfig({
  include: engine === 'cluster' ? clusterFiles : pairFiles,
  outputFile: { json: `.vitest/results-${engine}.json` },
  globalSetup: {
    sqlite: [],
    postgres: ['support/postgres-preflight.ts'],
    cluster: ['support/postgres-preflight.ts', 'support/nginx-preflight.ts', REDIS_RUN_PREFIX_SETUP],
  }[engine],
  // Each file brings up its own pair of servers; running files one at a time keeps CPU-bound
  // rate-limit and timing checks honest.
  fileParallelism: false,
});
