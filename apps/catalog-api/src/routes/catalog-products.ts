import { ServiceError } from '@catalog/contracts';
import type Router from '@koa/router';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor.ts';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined, flag } from '../http/defined.ts';
import { projectReducedProduct } from '../projection/project-catalog.ts';
import { fieldSelection, projectProduct } from '../projection/project-product.ts';
import { searchResponseJson } from '../projection/search-response.ts';
import type { RouteDeps } from './route-deps.ts';

// RFC 9745: the moment the deprecated list was deprecated, as @<unix seconds>.
const LIST_DEPRECATED_AT = '@1767225600';

/** GET /products/search, GET /products/{productId} and the deprecated GET /products (spec 4.1). */
export function catalogProductRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  contractRoute(router, guards, 'searchProducts', async (ctx, { query }) => {
    const view = {
      channel: ctx.state.channel,
      withRelationCodes: false,
      fields: fieldSelection(query.fields),
    };
    const page = await store.productSearch.searchDocuments(
      {
        ...defined({
          q: query.q,
          brandName: query.brandName,
          updatedAfter: query.updatedAfter,
          includeArchived: flag(query.includeArchived),
          displayOnWeb: flag(query.displayOnWeb),
          sort: query.sort,
          order: query.sort === undefined ? undefined : query.order,
          syncToken: query.syncToken,
          includeAggregations: flag(query.includeAggregations),
        }),
        channel: ctx.state.channel,
        from: query.from,
        size: query.size,
      },
      view,
    );
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = searchResponseJson(page);
  });

  contractRoute(router, guards, 'getProduct', async (ctx, { params }) => {
    const product = await store.products.get(params.productId);
    if (product === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Product not found');
    ctx.body = projectProduct(product, { channel: ctx.state.channel, withRelationCodes: true });
  });

  contractRoute(router, guards, 'listProducts', async (ctx, { query }) => {
    const afterSeq = query.lastKey === undefined ? undefined : decodeListCursor(query.lastKey);
    const page = await store.products.listActive({ limit: query.limit, ...defined({ afterSeq }) });
    ctx.set('Deprecation', LIST_DEPRECATED_AT);
    ctx.set('Link', '</products/search>; rel="successor-version"');
    ctx.body = {
      products: page.products.map(projectReducedProduct),
      lastKey: page.nextAfterSeq === null ? null : encodeListCursor(page.nextAfterSeq),
    };
  });
}
