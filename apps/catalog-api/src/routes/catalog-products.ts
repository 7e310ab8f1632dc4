import { ServiceError } from '@catalog/contracts';
import type Router from '@koa/router';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor.ts';
import { searchProductsForClient } from '../domain/products/search-products.ts';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined } from '../http/defined.ts';
import { projectReducedProduct } from '../projection/project-catalog.ts';
import { projectProduct } from '../projection/project-product.ts';
import { searchResponseJson } from '../projection/search-response.ts';
import type { RouteDeps } from './route-deps.ts';

// RFC 9745: the moment the deprecated list was deprecated, as @<unix seconds>.
const LIST_DEPRECATED_AT = '@1767225600';

/** GET /products/search, GET /products/{productId} and the deprecated GET /products (spec 4.1). */
export function catalogProductRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  contractRoute(router, guards, 'searchProducts', async (ctx, { query }) => {
    const page = await searchProductsForClient({
      search: store.productSearch,
      query,
      channel: ctx.state.channel,
    });
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
