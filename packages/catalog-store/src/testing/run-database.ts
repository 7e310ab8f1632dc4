import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './test-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The database this test run created on the TEST_DATABASE_URL server, dropped after the run. */
    postgresRunDatabaseUrl: string;
  }
}

/**
 * A Vitest global set-up's work: one database per run on the server `serverUrl` names, so that runs
 * side by side never see each other's rows, provided to the tests as `postgresRunDatabaseUrl` and
 * dropped when the run ends. An unreachable server fails the run with one line saying how to provide
 * one: the PostgreSQL adapter is never silently skipped.
 */
export async function setUpRunDatabase(
  project: TestProject,
  serverUrl: string,
): Promise<() => Promise<void>> {
  const database = await createTestDatabase(serverUrl, 'catalog_test');
  project.provide('postgresRunDatabaseUrl', database.url);
  return () => database.drop();
}
