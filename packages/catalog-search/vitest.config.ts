import { packageTestConfig } from '@catalog/vitest-config';

export default packageTestConfig({ globalSetup: ['test/support/postgres-run-database.ts'] });
