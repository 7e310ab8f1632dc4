import type { CatalogSearch } from '@catalog/store';
import { EngineBrandSearch } from '../brands/engine-brand-search.ts';
import { EngineProductSearch } from '../paging/engine-product-search.ts';
import { SearchPageCache } from '../paging/page-cache.ts';
import type { SearchEngine } from './search-engine.ts';

export interface CatalogSearchOptions {
  /** Signs syncTokens: the deployment's key, so every instance accepts the tokens of the others. */
  syncTokenSecret: Uint8Array;
  /** Bytes of repeated first-offset pages kept (paging/page-cache.ts); 0 or absent: none. */
  pageCacheBytes?: number;
  /** A page answered from the page cache, without asking the engine (the server's metrics). */
  onPageCacheHit?: () => void;
}

/** An engine opened as CatalogSearch and closable: what every engine's opener returns. */
export interface OpenedSearch extends CatalogSearch {
  close(): Promise<void>;
}

/** The neutral search semantics over `engine`. */
export function catalogSearchOver(engine: SearchEngine, options: CatalogSearchOptions): OpenedSearch {
  const cacheBytes = options.pageCacheBytes ?? 0;
  const onHit = options.onPageCacheHit;
  return {
    productSearch: new EngineProductSearch(
      engine,
      options.syncTokenSecret,
      cacheBytes > 0
        ? { cache: new SearchPageCache(cacheBytes), ...(onHit === undefined ? {} : { onHit }) }
        : null,
    ),
    brandSearch: new EngineBrandSearch(engine),
    compactSearchIndex: () => engine.compactIndex(),
    close: () => engine.close(),
  };
}
