import type { BrandSearchPage, BrandSearchQuery } from '../model/search.ts';

export interface BrandSearch {
  search(query: BrandSearchQuery): Promise<BrandSearchPage>;
}
