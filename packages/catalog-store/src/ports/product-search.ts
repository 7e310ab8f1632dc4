import type { ProductSearchPage, ProductSearchQuery } from '../model/search.ts';

/**
 * Spec 4.1 search. A page is either proven complete or the call rejects with SearchTimeoutError,
 * SearchIncompleteError or IdentifierLookupIncompleteError — never a partial page.
 */
export interface ProductSearch {
  search(query: ProductSearchQuery): Promise<ProductSearchPage>;
}
