import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogDatabasePath } from '@catalog/store';
import type { StoreHandle } from '@catalog/store/testing';
import { defaultRegistry, openCatalogue, selectEngines, withSearchEngines } from '../../src/index.ts';
import { naiveMemorySearch } from './naive-search-engine.ts';

/** The default registry with the naive engine added: all a deployment's build would change. */
const registry = withSearchEngines(defaultRegistry, naiveMemorySearch);

/**
 * The catalogue opened as a program opens it, by name: the embedded SQLite records, whose change
 * feed drives the naive engine through the follower.
 */
export async function naiveSearchStore(): Promise<StoreHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalog-naive-'));
  const selection = selectEngines({ engine: 'sqlite', dataDir }, 'naive-memory', registry);
  const store = await openCatalogue(
    selection,
    // A catch-up is a scan of a few maps; a loaded machine may still take its time.
    { freshnessTimeoutMs: 120_000 },
    registry,
  );
  return {
    store,
    location: { engine: 'sqlite', databasePath: catalogDatabasePath(dataDir) },
    dispose: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
