import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogDatabasePath, openSqliteRecordStore } from '@catalog/store/sqlite';
import { openReplicatedSearch } from '../../src/engines/index.ts';
import { catalogSearchOver } from '../../src/index.ts';
import type { StoreHandle } from '../support/store-factory.ts';
import { NaiveEngine } from './naive-engine.ts';
import { NaiveIndex } from './naive-index.ts';

const SECRET = new Uint8Array(32).fill(3);

/**
 * Real SQLite records whose change feed drives the naive engine through the follower, wired as any
 * feed-driven engine is (openReplicatedSearch): what a registry entry for this engine would open.
 */
export async function naiveSearchStore(): Promise<StoreHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-naive-'));
  const databasePath = catalogDatabasePath(dir);
  const records = openSqliteRecordStore({ databasePath });
  const store = await openReplicatedSearch(
    records,
    async () => {
      const engine = new NaiveEngine(new NaiveIndex());
      const { close, ...search } = catalogSearchOver(engine, { syncTokenSecret: SECRET });
      return { search, target: engine, close };
    },
    // A catch-up is a scan of a few maps; a loaded machine may still take its time.
    { freshnessTimeoutMs: 120_000 },
  );
  return {
    store,
    location: { engine: 'sqlite', databasePath },
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
