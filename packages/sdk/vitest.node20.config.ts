// The unit-level tests that need no server, run on the machine's own Node (20 on CI) by `test:node20`.
import { packageTestConfig } from '@catalog/vitest-config';

export default packageTestConfig({
  include: ['test/unit/**/*.test.ts'],
  outputFile: { json: '.vitest/results-node20.json' },
});
