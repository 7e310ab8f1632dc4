import { type CatalogRequest, isSortOrder } from '@catalog/contracts';
import type { ProductDocumentPage, ProductSearch } from '@catalog/store';
import { defined, flag } from '../../http/defined.ts';
import { fieldSelection } from '../../projection/project-product.ts';

/** The parameters of GET /products/search, validated and defaulted by the contract. */
export type ProductSearchParameters = CatalogRequest<'searchProducts'>['query'];

/**
 * GET /products/search as a client bound to `channel` (null: unbound) receives it: the same search,
 * the allowlist projection, `fields` narrowing and `displayOnWeb` of that channel (spec 2.1, 4.1).
 * The search route and the admins' preview both call this, so the preview cannot drift from what an
 * integrator gets.
 */
export function searchProductsForClient(input: {
  readonly search: Pick<ProductSearch, 'searchDocuments'>;
  readonly query: ProductSearchParameters;
  readonly channel: string | null;
}): Promise<ProductDocumentPage> {
  const { query, channel } = input;
  return input.search.searchDocuments(
    {
      ...defined({
        q: query.q,
        brandName: query.brandName,
        updatedAfter: query.updatedAfter,
        includeArchived: flag(query.includeArchived),
        displayOnWeb: flag(query.displayOnWeb),
        sort: query.sort,
        order: query.sort !== undefined && isSortOrder(query.order) ? query.order : undefined,
        syncToken: query.syncToken,
        includeAggregations: flag(query.includeAggregations),
      }),
      channel,
      from: query.from,
      size: query.size,
    },
    { channel, withRelationCodes: false, fields: fieldSelection(query.fields) },
  );
}
