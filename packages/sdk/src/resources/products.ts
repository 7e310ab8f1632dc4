// The product routes an M2M token may call (spec 4.1).
import type { CatalogApi, Product, ProductListResponse, ProductSearchResponse } from '@catalog/contracts';
import { ServerError } from '../errors.ts';
import { type Authorizer, type CallOptions, oneTrace, type TransportSettings } from '../http/transport.ts';
import { bodyGetter } from './get-body.ts';
import type { NaturalQuery } from './query.ts';

type SearchParameters = NonNullable<CatalogApi.operations['searchProducts']['parameters']['query']>;

/**
 * GET /products/search's query: booleans for "true"/"false", `fields` as a list or the contract's string,
 * `order` a SortDirection (the document types it as any string, which the service ignores without `sort`).
 */
export type SearchProductsQuery = NaturalQuery<
  Omit<SearchParameters, 'order'> & { order?: CatalogApi.components['schemas']['SortDirection'] },
  'fields'
>;
export type ListProductsQuery = NonNullable<CatalogApi.operations['listProducts']['parameters']['query']>;

export interface ProductsResource {
  /** GET /products/search: one page. Use `syncToken` from the reply for the next one. */
  search(query?: SearchProductsQuery, options?: CallOptions): Promise<ProductSearchResponse>;
  /** Every page of a search, following `syncToken` until it is null. */
  searchPages(
    query?: SearchProductsQuery,
    options?: CallOptions,
  ): AsyncIterableIterator<ProductSearchResponse>;
  /** Every product of a search, page after page. */
  searchAll(query?: SearchProductsQuery, options?: CallOptions): AsyncIterableIterator<Product>;
  /** GET /products/{productId}. */
  get(productId: string, options?: CallOptions): Promise<Product>;
  /** @deprecated GET /products is deprecated by the service (spec 9); use `search`. */
  list(query?: ListProductsQuery, options?: CallOptions): Promise<ProductListResponse>;
  /** @deprecated GET /products is deprecated by the service (spec 9); use `searchPages`. */
  listPages(query?: ListProductsQuery, options?: CallOptions): AsyncIterableIterator<ProductListResponse>;
}

export function productsResource(settings: TransportSettings, base: URL, auth: Authorizer): ProductsResource {
  const get = bodyGetter(settings, base, auth);

  const search: ProductsResource['search'] = async (query, options) => {
    const page = await get<ProductSearchResponse>('products/search', query, options);
    // Spec 4.4 step 5: success is recognised by a data array.
    if (!Array.isArray(page?.data)) {
      throw new ServerError({ message: 'Search reply without a data array', status: 200, body: page });
    }
    return page;
  };

  async function* searchPages(query: SearchProductsQuery = {}, options?: CallOptions) {
    const paging = oneTrace(options);
    let syncToken = query.syncToken;
    for (;;) {
      const page = await search({ ...query, ...(syncToken === undefined ? {} : { syncToken }) }, paging);
      yield page;
      if (page.syncToken === null || page.syncToken === undefined || page.data.length === 0) return;
      syncToken = page.syncToken;
    }
  }

  async function* listPages(query: ListProductsQuery = {}, options?: CallOptions) {
    const paging = oneTrace(options);
    let lastKey = query.lastKey;
    for (;;) {
      const page = await get<ProductListResponse>(
        'products',
        { ...query, ...(lastKey === undefined ? {} : { lastKey }) },
        paging,
      );
      yield page;
      if (page.lastKey === null || page.lastKey === undefined) return;
      lastKey = page.lastKey;
    }
  }

  return {
    search,
    searchPages,
    async *searchAll(query, options) {
      for await (const page of searchPages(query, options)) yield* page.data;
    },
    get: (productId, options) =>
      get<Product>(`products/${encodeURIComponent(productId)}`, undefined, options),
    list: (query, options) => get<ProductListResponse>('products', query, options),
    listPages,
  };
}
