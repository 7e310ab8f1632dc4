import { packageTestConfig } from '@catalog/vitest-config';

export default packageTestConfig();
