// Shared vitest settings. Workspace packages resolve to their TypeScript sources
// (the "source" export condition), so tests never need a prior build.
//
// The packages' tests read two variables, here and nowhere else (tests get them through `inject`):
//   TEST_HEAVY=1     the long version of the property and load tests (many more runs, bigger budgets; not for CI)
//   TEST_SEED=<int>  the seed of every property test (each prints the seed it ran with, so a failure replays)
//   TEST_DATABASE_URL  the PostgreSQL server the PostgreSQL adapter's tests create their database on
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './start-timeouts.js';

const conditions = ['source', ...defaultServerConditions];

/** The server the project's machines run (decisions.md, Scale-out). */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The test settings read from the environment once, for `inject('testSettings')`. */
// biome-ignore lint/style/noProcessEnv: this module is the packages' test configuration.
export function readTestSettings(env = process.env) {
  const heavy = env.TEST_HEAVY === '1' || env.TEST_HEAVY === 'true';
  if (env.TEST_HEAVY !== undefined && !['', '0', '1', 'false', 'true'].includes(env.TEST_HEAVY))
    throw new Error(`TEST_HEAVY must be 1/true or 0/false, not "${env.TEST_HEAVY}"`);
  let seed = null;
  if (env.TEST_SEED !== undefined && env.TEST_SEED !== '') {
    seed = Number(env.TEST_SEED);
    if (!Number.isSafeInteger(seed))
      throw new Error(`TEST_SEED must be a whole number, not "${env.TEST_SEED}"`);
  }
  const databaseUrl = env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
  if (!/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`TEST_DATABASE_URL must be a postgres:// URL, not "${databaseUrl}"`);
  return Object.freeze({ heavy, seed, databaseUrl });
}

/** @param {import('vitest/config').UserConfig['test']} [test] */
export function packageTestConfig(test = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Generous on purpose (start-timeouts.js): every test is sized to take a few seconds alone,
      // but turbo runs the packages side by side on two cores, and a test that starts servers must
      // outlast their start-up on a machine ten times slower.
      testTimeout: TEST_TIMEOUT_MS,
      // The JSON report lets scripts/test-summary.mjs print one closing line for the whole repo.
      reporters: ['default', 'json'],
      outputFile: { json: '.vitest/results.json' },
      hookTimeout: TEST_TIMEOUT_MS,
      provide: { testSettings: readTestSettings() },
      ...test,
    },
  });
}
