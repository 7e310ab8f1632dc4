import type { Brand, ProductAggregations, ProductRecord, ProductView } from '@catalog/store';
import type { NormalisedProductQuery } from '../query/normalise-product-query.ts';

/** A value of an engine's sort key: what JSON carries exactly. */
export type PositionKeyPart = string | number | null;

/**
 * Where a page ended, for the next page to continue after it: the last hit's place in the engine's
 * order as a short list the engine defines (its sort key, and whatever it needs to place a hit),
 * and its seq, every engine's final tie-breaker. The neutral layer signs it into the syncToken
 * unread, so an engine may change what the key holds only with a new token version.
 */
export interface CursorPosition {
  key: readonly PositionKeyPart[];
  seq: number;
}

/** One page to locate, as the neutral layer hands it to an engine. */
export interface ProductSearchJob {
  query: NormalisedProductQuery;
  /** The previous page's last position (from a syncToken); null on a first page. */
  after: CursorPosition | null;
  /** Carried by the cursor on later pages; computed by the engine on the first. */
  knownTotal: { total: number; totalIsLowerBound: boolean } | null;
  /** The reported total is capped here (spec: 10,000); counting may stop one past it. */
  totalCap: number;
}

/**
 * A page located and materialised in one consistent state of the catalogue, or a rejection
 * (SearchTimeoutError, SearchIncompleteError, IdentifierLookupIncompleteError): never a partial page.
 */
export interface EnginePage<Hit> {
  hits: Hit[];
  /** Position of the page's last hit; null for an empty page. */
  last: CursorPosition | null;
  hasMore: boolean;
  total: number;
  totalIsLowerBound: boolean;
  aggregations?: ProductAggregations;
}

export interface BrandSearchJob {
  /** Folded terms; empty matches every brand. */
  terms: string[];
  /** True when q was given but has no word character: nothing can match. */
  matchNothing: boolean;
  includeArchived: boolean;
  from: number;
  size: number;
}

export interface BrandSearchOutcome {
  brands: Brand[];
  total: number;
}

/**
 * What a search engine implements; everything a caller sees of paging, cursors, totals and the
 * response's shape is the neutral layer's (paging/, brands/), written once above this port.
 */
export interface SearchEngine {
  /** The `source` every page reports. */
  readonly source: string;
  searchProducts(job: ProductSearchJob): Promise<EnginePage<ProductRecord>>;
  /**
   * The same page with each hit projected through the allowlist for `view` and serialised as JSON
   * where the engine runs, so only strings cross back (GET /products/search sends them on).
   */
  searchProductDocuments(job: ProductSearchJob, view: ProductView): Promise<EnginePage<string>>;
  searchBrands(job: BrandSearchJob): Promise<BrandSearchOutcome>;
  /**
   * The version of the catalogue state a search started now would see; any commit changes it.
   * Absent: the engine cannot tell, and no page is cached.
   */
  catalogueVersion?(): string;
  /** Maintenance after a bulk load; searches are correct without it, only slower. */
  compactIndex(): Promise<void>;
  close(): Promise<void>;
}
