import { ServiceError } from '@catalog/contracts';
import type Router from '@koa/router';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined, flag } from '../http/defined.ts';
import { projectBrand } from '../projection/project-catalog.ts';
import type { RouteDeps } from './route-deps.ts';

/** GET /brands (a raw array), GET /brands/search (its own shape and `code` errors), GET /brands/{id}. */
export function catalogBrandRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  contractRoute(router, guards, 'listBrands', async (ctx, { query }) => {
    const brands = await store.brands.list({ includeArchived: flag(query.includeArchived) === true });
    ctx.body = brands.map(projectBrand);
  });

  contractRoute(
    router,
    guards,
    'searchBrands',
    async (ctx, { query }) => {
      const page = await store.brandSearch.search({
        ...defined({ q: query.q }),
        from: query.from,
        size: query.size,
      });
      ctx.body = {
        data: page.brands.map(projectBrand),
        pagination: { total: page.total, from: page.from, size: page.size },
        meta: { queryTimeMs: page.queryTimeMs, source: page.source },
      };
    },
    { errorStyle: 'code' },
  );

  contractRoute(router, guards, 'getBrand', async (ctx, { params }) => {
    const brand = await store.brands.get(params.id);
    // Archived brands stay readable by id: a product may still name one.
    if (brand === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Brand not found');
    ctx.body = projectBrand(brand);
  });
}
