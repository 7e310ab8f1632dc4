import type Router from '@koa/router';
import { previewProductSearch } from '../domain/search-preview/preview-product-search.ts';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { searchResponseJson } from '../projection/search-response.ts';
import type { RouteDeps } from './route-deps.ts';

/** GET /products/search-preview: what an integrator's token gets from GET /products/search (admin). */
export function searchPreviewRoutes(router: Router<AppState>, { store, guards, now }: RouteDeps): void {
  contractRoute(router, guards, 'previewProductSearch', async (ctx, { query }) => {
    const { subject, access, page } = await previewProductSearch({ store, query, now: now() });
    // The page is spliced in as GET /products/search sends it, byte for byte.
    const head = JSON.stringify({ subject, access });
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `${head.slice(0, -1)},"search":${page === null ? 'null' : searchResponseJson(page)}}`;
  });
}
