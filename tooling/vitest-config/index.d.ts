import type { UserConfig } from 'vitest/config';

export interface TestSettings {
  /** TEST_HEAVY=1: the long version of the property and load tests. */
  readonly heavy: boolean;
  /** TEST_SEED: the seed of every property test; null runs each with its own default seed. */
  readonly seed: number | null;
  /** TEST_DATABASE_URL: the PostgreSQL server tests create their own database on. */
  readonly databaseUrl: string;
}

export const DEFAULT_TEST_DATABASE_URL: string;

export function readTestSettings(env?: Record<string, string | undefined>): TestSettings;
export function packageTestConfig(test?: UserConfig['test']): UserConfig;

declare module 'vitest' {
  export interface ProvidedContext {
    testSettings: TestSettings;
  }
}
