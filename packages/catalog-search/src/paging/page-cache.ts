import type { ProductDocumentPage, ProductView } from '@catalog/store';
import { LRUCache } from 'lru-cache';
import type { CursorPosition } from '../engine/search-engine.ts';
import type { NormalisedProductQuery } from '../query/normalise-product-query.ts';

/** A first page as the engine answered it, before the neutral layer adds timing and paging fields. */
export type CachedDocumentPage = Pick<
  ProductDocumentPage,
  'documents' | 'total' | 'totalIsLowerBound' | 'hasMore' | 'aggregations'
> & { last: CursorPosition | null };

/**
 * First-offset pages of GET /products/search (no syncToken) as the engine produced them, for the
 * catalogue state they were computed in. Storefront traffic repeats its queries (a Zipf-shaped mix:
 * a few very often, most rarely), and a repeated page would otherwise cost the engine's hop (a worker,
 * a network call), the queue behind slow queries and the search itself. Keyed by the catalogue's version read before the
 * search started (SearchEngine.catalogueVersion): any commit of catalogue rows, by this process or another,
 * changes it, so an entry is only ever served for the exact state it describes (the search's own snapshot is that
 * state or later, and a later one means a newer version, which no request can still ask for).
 * Cursor pages are left out: a sync walk never repeats a page. Bounded by the bytes it holds.
 */
export class SearchPageCache {
  readonly #pages: LRUCache<string, CachedDocumentPage>;

  constructor(maxBytes: number) {
    this.#pages = new LRUCache<string, CachedDocumentPage>({
      maxSize: maxBytes,
      // UTF-16 strings: two bytes a character, plus the aggregations' counts.
      sizeCalculation: (page) =>
        2 * page.documents.reduce((sum, document) => sum + document.length, 0) +
        (page.aggregations === undefined ? 0 : 2 * JSON.stringify(page.aggregations).length) +
        256,
    });
  }

  static key(version: string, query: NormalisedProductQuery, fingerprint: string, view: ProductView): string {
    const fields = view.fields === undefined ? '*' : [...view.fields].sort().join(',');
    return `${version}|${fingerprint}|${query.from}|${query.size}|${query.aggregations}|${view.channel}|${view.withRelationCodes}|${fields}`;
  }

  get(key: string): CachedDocumentPage | undefined {
    return this.#pages.get(key);
  }

  set(key: string, page: CachedDocumentPage): void {
    this.#pages.set(key, page);
  }
}
