// Shared vitest settings. Workspace packages resolve to their TypeScript sources
// (the "source" export condition), so tests never need a prior build.
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['source', ...defaultServerConditions];

/** @param {import('vitest/config').UserConfig['test']} [test] */
export function packageTestConfig(test = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 30_000,
      // The JSON report lets scripts/test-summary.mjs print one closing line for the whole repo.
      reporters: ['default', 'json'],
      outputFile: { json: '.vitest/results.json' },
      hookTimeout: 60_000,
      ...test,
    },
  });
}
