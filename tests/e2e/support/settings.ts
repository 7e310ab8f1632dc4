// The one place the bad-input, fault and load suites read their settings from the environment.
//
//   E2E_HEAVY=1        many more fuzz runs, longer saturation, more kill rounds (not for CI)
//   E2E_SEED=<int>     the fuzz seed (default below; printed by every fuzz test so a failure can be replayed)
//   E2E_FUZZ_RUNS=<n>  overrides the number of runs per fuzz property
//   CHROMIUM_PATH=<p>  the browser of the console suite (default: Debian's /usr/bin/chromium)
//   E2E_ENGINE=sqlite|postgres|cluster  where the stacks keep their records (default sqlite, the embedded
//                      engine); postgres gives every stack a database of its own on the TEST_DATABASE_URL
//                      server; cluster runs the cluster suite and the limits of spec 8 on the topology of
//                      README "Deployment" (cluster/support/cluster.ts): two instances of each server
//                      behind nginx, on a database of their own and Redis (TEST_REDIS_URL)
//   TEST_DATABASE_URL=<url>  that server (default: the local one the packages' tests use too)
//   NGINX_PATH=<p>     the cluster's nginx (default: the first on PATH, else Debian's /usr/sbin/nginx)
//
// CI runs the short version: the fuzz files stay within about 40 s in all on a quiet machine. Each
// property stops at its run count, never at a time budget: a loaded machine takes longer, the verdict
// is the same; the fault and load files take about a minute and a half.

import { DEFAULT_TEST_DATABASE_URL } from '@catalog/vitest-config';
import { findNginx } from '../../../scripts/cluster/nginx-process.mts';

// biome-ignore lint/style/noProcessEnv: this module is the e2e suites' configuration module.
const env = process.env;

const positiveInt = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a whole number, not "${value}"`);
  return parsed;
};

/** The fixed default seed of the fuzz suites. */
export const DEFAULT_FUZZ_SEED = 20_240_917;

/**
 * The runs of the test command, in its order: a stack's records on each engine, then the cluster
 * (its records on PostgreSQL, behind nginx).
 */
export const ENGINES = ['sqlite', 'postgres', 'cluster'] as const;
export type Engine = (typeof ENGINES)[number];

function engineOf(value: string | undefined): Engine {
  if (value === undefined || value === '') return 'sqlite';
  const engine = ENGINES.find((name) => name === value);
  if (engine === undefined) throw new Error(`E2E_ENGINE must be ${ENGINES.join(' or ')}, not "${value}"`);
  return engine;
}

function postgresServerUrl(value: string | undefined): string {
  const url = value === undefined || value === '' ? DEFAULT_TEST_DATABASE_URL : value;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error(`TEST_DATABASE_URL must be a postgres:// URL, not "${url}"`);
  return url;
}

const heavy = env.E2E_HEAVY === '1' || env.E2E_HEAVY === 'true';
const runsOverride = positiveInt('E2E_FUZZ_RUNS', env.E2E_FUZZ_RUNS);

export interface E2ESettings {
  /** E2E_HEAVY=1: the long version. */
  readonly heavy: boolean;
  readonly fuzz: {
    readonly seed: number;
    /** Runs per property (each run sends one or a few requests); a count, never a time budget. */
    readonly runs: number;
    /** Runs of a property whose every run is several administrative actions. */
    readonly longRuns: number;
  };
  readonly faults: {
    /** kill -9 rounds per scenario. */
    readonly killRounds: number;
    /** Demo catalogue of the fault stacks. */
    readonly demoProducts: number;
  };
  readonly load: {
    /** Closed-loop callers hammering the API. */
    readonly concurrency: number;
    /**
     * RATE_LIMIT_IP_PER_5MIN for the per-IP check: the documented 1,000 (it fits the CI budget: the
     * window is counted, not waited for).
     */
    readonly ipWindowLimit: number;
  };
  /** The Chromium executable the console suite drives (playwright-core cannot download its own here). */
  readonly chromium: string;
  /** Where the stacks keep their records. */
  readonly engine: Engine;
  /** The PostgreSQL server a postgres stack or a cluster creates its database on (TEST_DATABASE_URL). */
  readonly postgresServerUrl: string;
  /** The cluster's nginx; empty when there is none (the cluster run's set-up then fails, saying so). */
  readonly nginx: string;
}

export const settings: E2ESettings = Object.freeze({
  heavy,
  fuzz: Object.freeze({
    seed: positiveInt('E2E_SEED', env.E2E_SEED) ?? DEFAULT_FUZZ_SEED,
    runs: runsOverride ?? (heavy ? 20_000 : 1_000),
    longRuns: runsOverride ?? (heavy ? 5_000 : 200),
  }),
  faults: Object.freeze({ killRounds: heavy ? 5 : 1, demoProducts: heavy ? 3_000 : 400 }),
  load: Object.freeze({
    concurrency: heavy ? 64 : 24,
    ipWindowLimit: 1_000,
  }),
  chromium:
    env.CHROMIUM_PATH === undefined || env.CHROMIUM_PATH === '' ? '/usr/bin/chromium' : env.CHROMIUM_PATH,
  engine: engineOf(env.E2E_ENGINE),
  postgresServerUrl: postgresServerUrl(env.TEST_DATABASE_URL),
  nginx: findNginx(env.NGINX_PATH, env.PATH) ?? '',
});

/** A line in the test output (the seed, measured rates): what a reader needs to replay or judge a run. */
export function report(line: string): void {
  // biome-ignore lint/suspicious/noConsole: the suites print their seed and measurements on purpose.
  console.info(`[e2e] ${line}`);
}
