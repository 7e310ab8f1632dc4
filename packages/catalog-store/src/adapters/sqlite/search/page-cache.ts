import { LRUCache } from 'lru-cache';
import type { ProductView } from '../../../model/external-product.ts';
import type { NormalisedProductQuery } from '../../../search/normalise-product-query.ts';
import type { ProductDocumentOutcome } from './run-product-search.ts';

/**
 * First-offset pages of GET /products/search (no syncToken) as the worker produced them, for the
 * catalogue state they were computed in. Storefront traffic repeats its queries (a Zipf-shaped mix:
 * a few very often, most rarely), and a repeated page would otherwise cost the worker hop, the
 * queue behind slow queries and the search itself. Keyed by the catalogue's version read before the
 * search started (catalogue-version.ts): any commit of catalogue rows, by this process or another,
 * changes it, so an entry is only ever served for the exact state it describes (the search's own snapshot is that
 * state or later, and a later one means a newer version, which no request can still ask for).
 * Cursor pages are left out: a sync walk never repeats a page. Bounded by the bytes it holds.
 */
export class SearchPageCache {
  readonly #pages: LRUCache<string, ProductDocumentOutcome>;

  constructor(maxBytes: number) {
    this.#pages = new LRUCache<string, ProductDocumentOutcome>({
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

  get(key: string): ProductDocumentOutcome | undefined {
    return this.#pages.get(key);
  }

  set(key: string, page: ProductDocumentOutcome): void {
    this.#pages.set(key, page);
  }
}
