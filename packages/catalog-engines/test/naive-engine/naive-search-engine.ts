import { catalogSearchOver } from '@catalog/search';
import { replicaSearchEngine } from '../../src/index.ts';
import { NaiveEngine } from './naive-engine.ts';
import { NaiveIndex } from './naive-index.ts';

/** Signs syncTokens where the opener gives no deployment key; the engine keeps nothing across runs. */
const TEST_SYNC_TOKEN_SECRET = new Uint8Array(32).fill(3);

/**
 * The naive engine's whole registry entry: a feed-driven engine whose index is a few maps in
 * memory, rebuilt from the records' feed at every start.
 */
export const naiveMemorySearch = replicaSearchEngine('naive-memory', async ({ options }) => {
  const engine = new NaiveEngine(new NaiveIndex());
  const { close, ...search } = catalogSearchOver(engine, {
    syncTokenSecret: options.syncTokenSecret ?? TEST_SYNC_TOKEN_SECRET,
  });
  return { search, target: engine, close };
});
