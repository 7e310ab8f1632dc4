// The brand routes an M2M token may call (spec 4.1).
import type { Brand, BrandSearchResponse, CatalogApi } from '@catalog/contracts';
import { type Authorizer, type CallOptions, oneTrace, type TransportSettings } from '../http/transport.ts';
import { bodyGetter } from './get-body.ts';
import type { NaturalQuery } from './query.ts';

export type ListBrandsQuery = NaturalQuery<
  NonNullable<CatalogApi.operations['listBrands']['parameters']['query']>
>;
export type SearchBrandsQuery = NonNullable<CatalogApi.operations['searchBrands']['parameters']['query']>;

export interface BrandsResource {
  /** GET /brands: every brand, one unpaginated array. */
  list(query?: ListBrandsQuery, options?: CallOptions): Promise<Brand[]>;
  /** GET /brands/search: one page (offset paging). */
  search(query?: SearchBrandsQuery, options?: CallOptions): Promise<BrandSearchResponse>;
  /** Every page of a brand search, by `from`/`size`. */
  searchPages(query?: SearchBrandsQuery, options?: CallOptions): AsyncIterableIterator<BrandSearchResponse>;
  /** Every brand of a search. */
  searchAll(query?: SearchBrandsQuery, options?: CallOptions): AsyncIterableIterator<Brand>;
  /** GET /brands/{id}. */
  get(id: string, options?: CallOptions): Promise<Brand>;
}

export function brandsResource(settings: TransportSettings, base: URL, auth: Authorizer): BrandsResource {
  const get = bodyGetter(settings, base, auth);
  const search: BrandsResource['search'] = (query, options) =>
    get<BrandSearchResponse>('brands/search', query, options);

  async function* searchPages(query: SearchBrandsQuery = {}, options?: CallOptions) {
    const paging = oneTrace(options);
    let from = query.from ?? 0;
    for (;;) {
      const page = await search({ ...query, from }, paging);
      yield page;
      from += page.data.length;
      if (page.data.length === 0 || from >= page.pagination.total) return;
    }
  }

  return {
    list: (query, options) => get<Brand[]>('brands', query, options),
    search,
    searchPages,
    async *searchAll(query, options) {
      for await (const page of searchPages(query, options)) yield* page.data;
    },
    get: (id, options) => get<Brand>(`brands/${encodeURIComponent(id)}`, undefined, options),
  };
}
