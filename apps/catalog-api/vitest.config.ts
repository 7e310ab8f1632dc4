import { packageTestConfig } from '@catalog/vitest-config';

export default packageTestConfig({ globalSetup: ['test/support/redis-run-prefix.ts'] });
