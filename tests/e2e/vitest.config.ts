// The servers under test run from their build output (turbo's `conformance` task builds them first);
// the test code itself resolves workspace packages to their sources like every other suite.
import { packageTestConfig } from '@catalog/vitest-config';

export default packageTestConfig({
  include: [
    'conformance/**/*.test.ts',
    'fuzz/**/*.test.ts',
    'faults/**/*.test.ts',
    'operator/**/*.test.ts',
    'console/**/*.test.ts',
  ],
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // Each file brings up its own pair of servers; running files one at a time keeps CPU-bound
  // rate-limit and timing checks honest.
  fileParallelism: false,
});
