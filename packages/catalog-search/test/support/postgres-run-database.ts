import { setUpRunDatabase } from '@catalog/store/testing';
import { readTestSettings } from '@catalog/vitest-config';
import type { TestProject } from 'vitest/node';

/** Vitest global set-up: the run's own database on the TEST_DATABASE_URL server. */
export default (project: TestProject) => setUpRunDatabase(project, readTestSettings().databaseUrl);
