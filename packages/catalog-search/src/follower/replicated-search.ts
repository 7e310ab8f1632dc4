import {
  type BrandSearchPage,
  type BrandSearchQuery,
  type CatalogSearch,
  type ChangeFeed,
  type ProductDocumentPage,
  type ProductSearchPage,
  type ProductSearchQuery,
  type ProductView,
  SearchIncompleteError,
} from '@catalog/store';
import type { ReplicaPosition } from './replica-position.ts';

export interface ReplicatedSearchOptions {
  /** How long a search may wait for the replica to apply what was committed before it (default 2 s). */
  freshnessTimeoutMs?: number;
}

export const DEFAULT_FRESHNESS_TIMEOUT_MS = 2000;

/** A text query may be an identifier lookup, which must never miss a committed product. */
function mustBeComplete(query: { q?: string; syncToken?: string }): boolean {
  return (query.q ?? '').trim() !== '' || query.syncToken !== undefined;
}

/**
 * Searches answered by a replica that follows the source's change feed. Each search first reads the
 * feed's head on the source (one row) and, when the replica has not applied it yet, has the
 * replica catch up and waits, so that normally a search sees every write committed before it
 * started, whichever instance made it.
 *
 * When the replica cannot catch up in time (a large import is being applied, the source is
 * unreachable), a text query (which may be an identifier lookup, spec 4.1) and a syncToken page
 * fail with 503 SEARCH_INCOMPLETE rather than miss a committed product or continue a walk from an
 * older state than its previous page; a browse without q is served from the replica as it is, a
 * state the source had, as spec 4.4's asynchronously updated index allows. Until the replica's first
 * catch-up completes (an instance that listens while it builds), it holds no state the source had
 * and every search fails so.
 */
export function replicatedSearch(
  replica: CatalogSearch,
  position: ReplicaPosition,
  source: ChangeFeed,
  options: ReplicatedSearchOptions = {},
): CatalogSearch {
  const timeoutMs = options.freshnessTimeoutMs ?? DEFAULT_FRESHNESS_TIMEOUT_MS;
  const fresh = async (query: { q?: string; syncToken?: string }): Promise<void> => {
    let reached: boolean;
    try {
      reached = await position.waitFor(await source.head(), timeoutMs);
    } catch (cause) {
      if (mustBeComplete(query) || !position.built) throw new SearchIncompleteError({ cause });
      return;
    }
    if (!reached && (mustBeComplete(query) || !position.built)) throw new SearchIncompleteError();
  };
  return {
    productSearch: {
      async search(query: ProductSearchQuery): Promise<ProductSearchPage> {
        await fresh(query);
        return replica.productSearch.search(query);
      },
      async searchDocuments(query: ProductSearchQuery, view: ProductView): Promise<ProductDocumentPage> {
        await fresh(query);
        return replica.productSearch.searchDocuments(query, view);
      },
    },
    brandSearch: {
      async search(query: BrandSearchQuery): Promise<BrandSearchPage> {
        await fresh(query);
        return replica.brandSearch.search(query);
      },
    },
    compactSearchIndex: () => replica.compactSearchIndex(),
  };
}
