import {
  OFFSET_WINDOW,
  type ProductAggregations,
  Q_MAX_LENGTH,
  REPORTED_TOTAL_CAP,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SORT_COLUMNS,
  SORT_ORDERS,
  type SortColumn,
  type SortOrder,
} from '@catalog/contracts';
import type { Brand } from './brand.ts';
import type { ProductRecord } from './product.ts';

/** Column IDs of spec 4.1: `code` sorts by productCode and `brand` by brandName. */
export const SORT_FIELDS: readonly SortColumn[] = SORT_COLUMNS;
export type SortField = SortColumn;
export type { SortOrder };
export { OFFSET_WINDOW, REPORTED_TOTAL_CAP, SEARCH_SIZE_DEFAULT, SEARCH_SIZE_MAX, SORT_ORDERS };
export const SEARCH_TERM_MAX_LENGTH: number = Q_MAX_LENGTH;

export interface ProductSearchQuery {
  q?: string;
  brandName?: string;
  /** ISO 8601 date-time. */
  updatedAfter?: string;
  includeArchived?: boolean;
  displayOnWeb?: boolean;
  /** Web channel of the calling client; null or absent = unbound. */
  channel?: string | null;
  sort?: SortField;
  /** Consulted only with `sort`; defaults to desc there. */
  order?: SortOrder;
  from?: number;
  size?: number;
  syncToken?: string;
  includeAggregations?: boolean;
}

/** Counts per value over the whole match set, largest first (the contract's FacetCounts). */
export type { ProductAggregations };

export interface ProductSearchPage {
  /** Internal records; the API projects them through the allowlist. */
  products: ProductRecord[];
  total: number;
  totalIsLowerBound: boolean;
  from: number;
  size: number;
  hasMore: boolean;
  syncToken: string | null;
  aggregations?: ProductAggregations;
  queryTimeMs: number;
  source: string;
}

/** The same page with each hit already in its external representation (spec 2.1), as JSON text. */
export interface ProductDocumentPage extends Omit<ProductSearchPage, 'products'> {
  documents: string[];
}

export interface BrandSearchQuery {
  q?: string;
  from?: number;
  size?: number;
  includeArchived?: boolean;
}

export interface BrandSearchPage {
  brands: Brand[];
  total: number;
  from: number;
  size: number;
  queryTimeMs: number;
  source: string;
}
