import { readTestSettings } from '@catalog/vitest-config';
import type { TestProject } from 'vitest/node';
import { setUpRunDatabase } from '../../src/testing/index.ts';

/** Vitest global set-up: the run's own database on the TEST_DATABASE_URL server. */
export default (project: TestProject) => setUpRunDatabase(project, readTestSettings().databaseUrl);
