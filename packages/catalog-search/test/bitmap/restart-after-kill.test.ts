import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDemoCatalogue } from '@catalog/store';
import { openPostgresRecordStore } from '@catalog/store/postgres';
import { TEST_SEARCH_TIMEOUT_MS, tempDataDir } from '@catalog/store/testing';
import { expect, it } from 'vitest';
import {
  openBitmapSearchOverReplica,
  openReplicatedSearch,
  openSqliteReplicaSearch,
  SEARCH_REPLICA_FILE_NAME,
} from '../../src/engines/index.ts';
import { searchAnswers } from '../replica/search-answers.ts';
import { freshSchema } from '../support/postgres-factory.ts';

const SECRET = new Uint8Array(32).fill(9);
const INSTANCE = new URL('../fixtures/bitmap-instance.ts', import.meta.url).pathname;

/** Starts the instance and resolves once it has printed "mid-build", with the child to kill. */
function instanceMidBuild(url: string, schema: string, dataDir: string) {
  const child = spawn(process.execPath, ['--conditions=source', INSTANCE, url, schema, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const paused = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('mid-build\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the instance exited (${code}) before its build paused`)));
  });
  return { child, exited, paused };
}

it(
  'an instance killed (kill -9) in the middle of its first build starts again from a new index and replica file and answers as a replica built anew does',
  async () => {
    const { url, schema, drop } = await freshSchema();
    const records = await openPostgresRecordStore({ url, schema });
    const dataDir = tempDataDir();
    try {
      // Several parts of 500: the kill lands with the first one written into the replica's transaction.
      await ensureDemoCatalogue(records, { products: 1_600, seed: 'bitmap-restart' });
      const instance = instanceMidBuild(url, schema, dataDir);
      await instance.paused;
      instance.child.kill('SIGKILL');
      expect(await instance.exited).toBe('SIGKILL');

      // Written while no instance runs: the next start must see them, not only what the killed build read.
      const some = (await records.products.listActive({ limit: 5 })).products;
      for (const product of some.slice(0, 2)) await records.products.archive(product.id);

      const restarted = await openReplicatedSearch(
        await openPostgresRecordStore({ url, schema }),
        (source) =>
          openBitmapSearchOverReplica(join(dataDir, SEARCH_REPLICA_FILE_NAME), source, {
            syncTokenSecret: SECRET,
          }),
        { freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS },
      );
      const referenceDir = tempDataDir();
      const reference = await openReplicatedSearch(
        await openPostgresRecordStore({ url, schema }),
        (source) =>
          openSqliteReplicaSearch(
            {
              databasePath: join(referenceDir, SEARCH_REPLICA_FILE_NAME),
              searchWorkers: 1,
              searchTimeoutMs: TEST_SEARCH_TIMEOUT_MS,
              syncTokenSecret: SECRET,
            },
            source,
          ),
        { freshnessTimeoutMs: TEST_SEARCH_TIMEOUT_MS },
      );
      try {
        expect(await searchAnswers(restarted)).toEqual(await searchAnswers(reference));
        const archived = await restarted.productSearch.search({ q: some[0]?.productCode as string });
        expect(archived.products.map((product) => product.id)).not.toContain(some[0]?.id);
      } finally {
        await restarted.close();
        await reference.close();
        rmSync(referenceDir, { recursive: true, force: true });
      }
    } finally {
      await records.close();
      rmSync(dataDir, { recursive: true, force: true });
      await drop();
    }
  },
  10 * 60_000,
);
