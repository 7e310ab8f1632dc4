import type { ProductView } from '../../../model/external-product.ts';
import {
  type ProductDocumentPage,
  type ProductSearchPage,
  type ProductSearchQuery,
  REPORTED_TOTAL_CAP,
} from '../../../model/search.ts';
import type { ProductSearch } from '../../../ports/product-search.ts';
import { normaliseProductQuery } from '../../../search/normalise-product-query.ts';
import { queryFingerprint } from '../../../search/query-fingerprint.ts';
import { decodeSyncToken, encodeSyncToken } from '../../../search/sync-token.ts';
import { SearchPageCache } from './page-cache.ts';
import type { ProductSearchJob, ProductSearchOutcome } from './run-product-search.ts';
import type { SearchWorkerPool } from './worker-pool.ts';

export const SQLITE_SEARCH_SOURCE = 'sqlite-fts5';

type PageOf<Hits> = Omit<ProductSearchPage, 'products'> & Hits;

export interface PageCaching {
  cache: SearchPageCache;
  /** The catalogue's snapshot version as the store's own connection sees it now. */
  version: () => string;
  onHit?: () => void;
}

export class SqliteProductSearch implements ProductSearch {
  readonly #pool: SearchWorkerPool;
  readonly #secret: Uint8Array;
  readonly #caching: PageCaching | null;

  constructor(pool: SearchWorkerPool, syncTokenSecret: Uint8Array, caching: PageCaching | null = null) {
    this.#pool = pool;
    this.#secret = syncTokenSecret;
    this.#caching = caching;
  }

  search(query: ProductSearchQuery): Promise<ProductSearchPage> {
    return this.#page(query, (job) => this.#pool.run({ kind: 'products', job }));
  }

  searchDocuments(query: ProductSearchQuery, view: ProductView): Promise<ProductDocumentPage> {
    const caching = this.#caching;
    return this.#page(query, async (job, queryHash) => {
      if (caching === null || job.after !== null)
        return this.#pool.run({ kind: 'product-documents', job, view });
      const key = SearchPageCache.key(caching.version(), job.query, queryHash, view);
      const cached = caching.cache.get(key);
      if (cached !== undefined) {
        caching.onHit?.();
        return cached;
      }
      const page = await this.#pool.run({ kind: 'product-documents', job, view });
      caching.cache.set(key, page);
      return page;
    });
  }

  /** Normalises the query, opens its cursor, runs the job in a worker and signs the next cursor. */
  async #page<Hits extends object>(
    query: ProductSearchQuery,
    run: (job: ProductSearchJob, queryHash: string) => Promise<Omit<ProductSearchOutcome, 'products'> & Hits>,
  ): Promise<PageOf<Hits>> {
    const started = performance.now();
    const normalised = normaliseProductQuery(query);
    const queryHash = queryFingerprint(normalised);
    const now = Date.now();
    const cursor =
      query.syncToken === undefined
        ? null
        : decodeSyncToken(this.#secret, query.syncToken, { queryHash, now });
    const { last, total, totalIsLowerBound, hasMore, aggregations, ...hits } = await run(
      {
        query: normalised,
        after: cursor,
        knownTotal:
          cursor === null ? null : { total: cursor.total, totalIsLowerBound: cursor.totalIsLowerBound },
        totalCap: REPORTED_TOTAL_CAP,
      },
      queryHash,
    );
    const syncToken =
      hasMore && last !== null
        ? encodeSyncToken(this.#secret, { ...last, queryHash, total, totalIsLowerBound, issuedAt: now })
        : null;
    const page = {
      ...(hits as unknown as Hits),
      total,
      totalIsLowerBound,
      from: normalised.from,
      size: normalised.size,
      hasMore,
      syncToken,
      queryTimeMs: Math.round(performance.now() - started),
      source: SQLITE_SEARCH_SOURCE,
    } as PageOf<Hits>;
    if (aggregations !== undefined) page.aggregations = aggregations;
    return page;
  }
}
