import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { aProduct } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

const SEARCH_ONCE = fileURLToPath(new URL('../fixtures/search-once.ts', import.meta.url));
const run = promisify(execFile);

// The search workers are threads of the process that opened the store. A program run from source
// with flags a worker thread refuses (a bench's --expose-gc, the API's --max-semi-space-size) must
// still get its searches answered: issue 27's pool handed the parent's flags to every worker, and
// every search of the store and API benchmarks failed.
describe('search workers of a process started with process-wide flags', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  it.each([['--expose-gc'], ['--max-semi-space-size=8']])(
    'answer a search when Node runs with %s',
    async (flag) => {
      handle = await sqliteStore();
      await handle.store.products.upsertMany([aProduct({ name: 'desk lamp' }), aProduct({ name: 'drill' })]);
      await handle.store.close();
      const { stdout } = await run(
        process.execPath,
        [flag, '--conditions=source', SEARCH_ONCE, handle.databasePath],
        { timeout: 120_000 },
      );
      expect(stdout.trim()).toBe('total 1');
    },
    180_000,
  );
});
