import {
  InvalidSortError,
  InvalidSortFieldError,
  identifierKey,
  OFFSET_WINDOW,
  type ProductSearchQuery,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SEARCH_TERM_MAX_LENGTH,
  SearchTermTooLongError,
  SORT_FIELDS,
  SORT_ORDERS,
  type SortField,
  type SortOrder,
  ValidationError,
} from '@catalog/store';
import { searchTerms } from './search-terms.ts';

/** Relevance: identifier hits, then all terms in the name, then the other matches; ties by seq. */
export type OrderBy = SortField | 'relevance';

export interface NormalisedProductQuery {
  /** Terms that must all prefix-match; empty when q is absent or has no word character. */
  terms: string[];
  /** q folded for the exact productCode/erpCode probe; null without q. */
  identifier: string | null;
  brandName: string | null;
  updatedAfterMs: number | null;
  includeArchived: boolean;
  displayOnWeb: boolean | null;
  channel: string | null;
  orderBy: OrderBy;
  direction: SortOrder;
  from: number;
  size: number;
  aggregations: boolean;
}

function pagingInteger(field: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value)) throw new ValidationError(field, 'must be an integer');
  return value;
}

function order(query: ProductSearchQuery, hasText: boolean): { orderBy: OrderBy; direction: SortOrder } {
  if (query.sort === undefined) {
    return hasText ? { orderBy: 'relevance', direction: 'asc' } : { orderBy: 'updatedAt', direction: 'asc' };
  }
  if (!SORT_FIELDS.includes(query.sort)) throw new InvalidSortFieldError(SORT_FIELDS);
  const direction = query.order ?? 'desc';
  if (!SORT_ORDERS.includes(direction)) throw new InvalidSortError();
  return { orderBy: query.sort, direction };
}

/** Applies every rule of spec 4.1 and decisions.md that does not need the engine. */
export function normaliseProductQuery(query: ProductSearchQuery): NormalisedProductQuery {
  const q = query.q ?? '';
  if (q.length > SEARCH_TERM_MAX_LENGTH) throw new SearchTermTooLongError(SEARCH_TERM_MAX_LENGTH);
  const hasText = q.trim() !== '';
  const size = pagingInteger('size', query.size, SEARCH_SIZE_DEFAULT);
  if (size < 1 || size > SEARCH_SIZE_MAX)
    throw new ValidationError('size', `must be between 1 and ${SEARCH_SIZE_MAX}`);
  const from = query.syncToken === undefined ? pagingInteger('from', query.from, 0) : 0;
  if (from < 0) throw new ValidationError('from', 'must not be negative');
  if (from + size > OFFSET_WINDOW) {
    throw new ValidationError(
      'from',
      `from + size must be at most ${OFFSET_WINDOW}; page further with syncToken`,
    );
  }
  let updatedAfterMs: number | null = null;
  if (query.updatedAfter !== undefined) {
    updatedAfterMs = Date.parse(query.updatedAfter);
    if (!Number.isFinite(updatedAfterMs))
      throw new ValidationError('updatedAfter', 'must be an ISO 8601 date-time');
  }
  return {
    terms: hasText ? searchTerms(q) : [],
    identifier: hasText ? identifierKey(q) : null,
    brandName: query.brandName ?? null,
    updatedAfterMs,
    includeArchived: query.includeArchived === true,
    displayOnWeb: query.displayOnWeb ?? null,
    channel: query.channel ?? null,
    ...order(query, hasText),
    from,
    size,
    aggregations: query.includeAggregations === true,
  };
}
