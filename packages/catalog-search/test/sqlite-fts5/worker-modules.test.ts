import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const WORKER_MODULES = fileURLToPath(new URL('../fixtures/worker-modules.ts', import.meta.url));
const run = promisify(execFile);

// Every search worker loads its modules when the pool starts it, and the first search waits for
// that. Loading the store's index had pulled in the whole store, the contract's validators (ajv)
// and pg: about 310 files instead of about 50, and first searches under load past their budget.
describe('a search worker thread', () => {
  it('loads the store through its read side alone: not the store or contract indexes, not ajv, not pg', async () => {
    const { stdout } = await run(process.execPath, ['--conditions=source', WORKER_MODULES], {
      timeout: 120_000,
    });
    const loaded = (JSON.parse(stdout) as string[]).filter((url) => url.startsWith('file:'));
    expect(loaded.some((url) => url.endsWith('/catalog-store/src/adapters/sqlite/reading.ts'))).toBe(true);
    const heavy = loaded.filter((url) =>
      /\/node_modules\/\.pnpm\/(ajv|pg)@|\/catalog-store\/src\/(index|adapters\/sqlite\/index)\.ts$|\/contracts\/src\/index\.ts$/.test(
        url,
      ),
    );
    expect(heavy).toEqual([]);
  }, 180_000);
});
