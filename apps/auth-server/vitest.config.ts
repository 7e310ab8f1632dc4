import { packageTestConfig } from '@catalog/vitest-config';
import { REDIS_RUN_PREFIX_SETUP } from '@catalog/vitest-config/redis-run-prefix';

export default packageTestConfig({ globalSetup: [REDIS_RUN_PREFIX_SETUP] });
