import {
  type ProductDocumentPage,
  type ProductSearch,
  type ProductSearchPage,
  type ProductSearchQuery,
  type ProductView,
  REPORTED_TOTAL_CAP,
} from '@catalog/store';
import type { EnginePage, ProductSearchJob, SearchEngine } from '../engine/search-engine.ts';
import { normaliseProductQuery } from '../query/normalise-product-query.ts';
import { queryFingerprint } from '../query/query-fingerprint.ts';
import { SearchPageCache } from './page-cache.ts';
import { decodeSyncToken, encodeSyncToken } from './sync-token.ts';

type PageOf<Hits> = Omit<ProductSearchPage, 'products'> & Hits;

export interface PageCaching {
  cache: SearchPageCache;
  onHit?: () => void;
}

/**
 * Spec 4.1 product search over any engine: the query normalised, its syncToken verified into the
 * engine's cursor position, the capped totals carried from the first page, the next token signed,
 * and repeated first pages served from the cache while the engine's catalogue version holds.
 */
export class EngineProductSearch implements ProductSearch {
  readonly #engine: SearchEngine;
  readonly #secret: Uint8Array;
  readonly #caching: PageCaching | null;

  constructor(engine: SearchEngine, syncTokenSecret: Uint8Array, caching: PageCaching | null = null) {
    this.#engine = engine;
    this.#secret = syncTokenSecret;
    this.#caching = caching;
  }

  search(query: ProductSearchQuery): Promise<ProductSearchPage> {
    return this.#page(query, async (job) => {
      const { hits, ...page } = await this.#engine.searchProducts(job);
      return { ...page, products: hits };
    });
  }

  searchDocuments(query: ProductSearchQuery, view: ProductView): Promise<ProductDocumentPage> {
    const caching = this.#caching;
    const version = this.#engine.catalogueVersion?.bind(this.#engine);
    const run = async (job: ProductSearchJob) => {
      const { hits, ...page } = await this.#engine.searchProductDocuments(job, view);
      return { ...page, documents: hits };
    };
    return this.#page(query, async (job, queryHash) => {
      if (caching === null || version === undefined || job.after !== null) return run(job);
      // Read before the search starts: the page then describes this version or a later one.
      const key = SearchPageCache.key(version(), job.query, queryHash, view);
      const cached = caching.cache.get(key);
      if (cached !== undefined) {
        caching.onHit?.();
        return cached;
      }
      const page = await run(job);
      caching.cache.set(key, page);
      return page;
    });
  }

  /** Normalises the query, opens its cursor, has the engine locate the page and signs the next cursor. */
  async #page<Hits extends object>(
    query: ProductSearchQuery,
    run: (job: ProductSearchJob, queryHash: string) => Promise<Omit<EnginePage<unknown>, 'hits'> & Hits>,
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
        after: cursor === null ? null : { key: cursor.key, seq: cursor.seq },
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
      source: this.#engine.source,
    } as PageOf<Hits>;
    if (aggregations !== undefined) page.aggregations = aggregations;
    return page;
  }
}
