import {
  openReplicatedSearch,
  type ReplicaSource,
  type SearchReplica,
  type SqliteFts5SearchOptions,
  splitCatalogueOptions,
} from '@catalog/search/engines';
import type { StorageLocation } from '@catalog/store';
import type { SearchEngine } from '../engine-registry.ts';

/** How a feed-driven engine opens its index: where the records are, its options, the feed it follows. */
export type OpenReplica = (
  over: { readonly location: StorageLocation; readonly options: SqliteFts5SearchOptions },
  source: ReplicaSource,
) => Promise<SearchReplica>;

/**
 * A search engine fed by the records' change feed, over any records engine: the whole entry of a
 * feed-driven engine is its name and how it opens its index.
 */
export function replicaSearchEngine(name: string, openReplica: OpenReplica): SearchEngine {
  return {
    name,
    refusal: () => undefined,
    openCatalogue: async ({ location, records, options }) => {
      const { engine, wiring } = splitCatalogueOptions(options);
      return openReplicatedSearch(
        await records.openRecords(location),
        (source) => openReplica({ location, options: engine }, source),
        wiring,
      );
    },
  };
}
