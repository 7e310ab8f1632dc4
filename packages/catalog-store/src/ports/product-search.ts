import type { ProductView } from '../model/external-product.ts';
import type { ProductDocumentPage, ProductSearchPage, ProductSearchQuery } from '../model/search.ts';

/**
 * Spec 4.1 search. A page is either proven complete or the call rejects with SearchTimeoutError,
 * SearchIncompleteError or IdentifierLookupIncompleteError — never a partial page.
 */
export interface ProductSearch {
  search(query: ProductSearchQuery): Promise<ProductSearchPage>;
  /**
   * The same page, its hits projected through the allowlist for `view` and serialised where the
   * search ran, for callers that only send them on (GET /products/search).
   */
  searchDocuments(query: ProductSearchQuery, view: ProductView): Promise<ProductDocumentPage>;
}
