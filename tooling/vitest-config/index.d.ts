import type { UserConfig } from 'vitest/config';

export interface TestSettings {
  /** TEST_HEAVY=1: the long version of the property and load tests. */
  readonly heavy: boolean;
  /** TEST_SEED: the seed of every property test; null runs each with its own default seed. */
  readonly seed: number | null;
}

export function readTestSettings(env?: Record<string, string | undefined>): TestSettings;
export function packageTestConfig(test?: UserConfig['test']): UserConfig;

declare module 'vitest' {
  export interface ProvidedContext {
    testSettings: TestSettings;
  }
}
