import {
  type ProductSearchPage,
  type ProductSearchQuery,
  REPORTED_TOTAL_CAP,
} from '../../../model/search.ts';
import type { ProductSearch } from '../../../ports/product-search.ts';
import { normaliseProductQuery } from '../../../search/normalise-product-query.ts';
import { queryFingerprint } from '../../../search/query-fingerprint.ts';
import { decodeSyncToken, encodeSyncToken } from '../../../search/sync-token.ts';
import type { SearchWorkerPool } from './worker-pool.ts';

export const SQLITE_SEARCH_SOURCE = 'sqlite-fts5';

export class SqliteProductSearch implements ProductSearch {
  readonly #pool: SearchWorkerPool;
  readonly #secret: Uint8Array;

  constructor(pool: SearchWorkerPool, syncTokenSecret: Uint8Array) {
    this.#pool = pool;
    this.#secret = syncTokenSecret;
  }

  async search(query: ProductSearchQuery): Promise<ProductSearchPage> {
    const started = performance.now();
    const normalised = normaliseProductQuery(query);
    const queryHash = queryFingerprint(normalised);
    const now = Date.now();
    const cursor =
      query.syncToken === undefined
        ? null
        : decodeSyncToken(this.#secret, query.syncToken, { queryHash, now });
    const outcome = await this.#pool.run({
      kind: 'products',
      job: {
        query: normalised,
        after: cursor,
        knownTotal:
          cursor === null ? null : { total: cursor.total, totalIsLowerBound: cursor.totalIsLowerBound },
        totalCap: REPORTED_TOTAL_CAP,
      },
    });
    const syncToken =
      outcome.hasMore && outcome.last !== null
        ? encodeSyncToken(this.#secret, {
            ...outcome.last,
            queryHash,
            total: outcome.total,
            totalIsLowerBound: outcome.totalIsLowerBound,
            issuedAt: now,
          })
        : null;
    const page: ProductSearchPage = {
      products: outcome.products,
      total: outcome.total,
      totalIsLowerBound: outcome.totalIsLowerBound,
      from: normalised.from,
      size: normalised.size,
      hasMore: outcome.hasMore,
      syncToken,
      queryTimeMs: Math.round(performance.now() - started),
      source: SQLITE_SEARCH_SOURCE,
    };
    if (outcome.aggregations !== undefined) page.aggregations = outcome.aggregations;
    return page;
  }
}
