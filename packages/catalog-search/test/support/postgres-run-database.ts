import { randomBytes } from 'node:crypto';
import { readTestSettings } from '@catalog/vitest-config';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The database this test run created on the TEST_DATABASE_URL server, dropped after the run. */
    postgresRunDatabaseUrl: string;
  }
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Vitest global set-up: one database per run on the server TEST_DATABASE_URL names, so that runs
 * side by side never see each other's rows, dropped when the run ends. An unreachable server fails
 * the run with one line saying how to provide one: the PostgreSQL adapter is never silently skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = readTestSettings().databaseUrl;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${serverUrl} (${(error as Error).message}): the store's tests need a PostgreSQL 15 server; start one or set TEST_DATABASE_URL=postgres://user@host:port/database`,
    );
  }
  const database = `catalog_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  project.provide('postgresRunDatabaseUrl', databaseUrl(serverUrl, database));
  return async () => {
    const dropper = new pg.Client({ connectionString: serverUrl });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropper.end();
  };
}
