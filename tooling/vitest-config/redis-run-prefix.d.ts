import type { TestProject } from 'vitest/node';

export const DEFAULT_TEST_REDIS_URL: string;

/** The path of this module, for a package's `globalSetup`. */
export const REDIS_RUN_PREFIX_SETUP: string;

export default function setup(project: TestProject): Promise<() => Promise<void>>;

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Redis server the tests use: TEST_REDIS_URL. */
    redisUrl: string;
    /** Starts every key this run writes, so runs side by side never meet; its keys go when it ends. */
    redisRunPrefix: string;
  }
}
