import { ServiceError } from '@catalog/contracts';
import type { ProductInput } from '@catalog/store';
import type Router from '@koa/router';
import { findDuplicates, partitionExistingCodes } from '../domain/products/find-duplicates.ts';
import type { AppState } from '../http/app-state.ts';
import { auditContextOf } from '../http/audit-context.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined } from '../http/defined.ts';
import { projectAdminBrand, projectAdminProduct } from '../projection/project-admin.ts';
import type { RouteDeps } from './route-deps.ts';

/**
 * The validated admin record as the store's input: top-level read-only fields are already gone; the
 * store's write path drops the derived relation entries a record read back carries.
 */
const productInput = (body: object) => body as ProductInput;

/** The admin catalogue routes of decisions.md: product and brand writes and the admin conveniences. */
export function adminCatalogueRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  contractRoute(router, guards, 'createProduct', async (ctx, { body }) => {
    ctx.status = 201;
    ctx.body = projectAdminProduct(await store.products.create(productInput(body), auditContextOf(ctx)));
  });

  contractRoute(router, guards, 'updateProduct', async (ctx, { params, body }) => {
    ctx.body = projectAdminProduct(
      await store.products.replace(params.productId, productInput(body), auditContextOf(ctx)),
    );
  });

  contractRoute(router, guards, 'archiveProduct', async (ctx, { params }) => {
    ctx.body = projectAdminProduct(await store.products.archive(params.productId, auditContextOf(ctx)));
  });

  contractRoute(router, guards, 'batchGetProducts', async (ctx, { body }) => {
    const products = await store.products.getMany(body.ids);
    const found = new Set(products.map((product) => product.id));
    ctx.body = {
      products: products.map(projectAdminProduct),
      missingIds: body.ids.filter((id) => !found.has(id)),
    };
  });

  contractRoute(router, guards, 'checkDuplicateProducts', async (ctx, { body }) => {
    ctx.body = {
      duplicates: await findDuplicates({
        store,
        candidate: defined({ productCode: body.productCode, erpCode: body.erpCode, barcode: body.barcode }),
        excludeProductId: body.excludeProductId,
      }),
    };
  });

  contractRoute(router, guards, 'findExistingProductsForPreview', async (ctx, { body }) => {
    ctx.body = await partitionExistingCodes({ store, productCodes: body.productCodes });
  });

  contractRoute(router, guards, 'createBrand', async (ctx, { body }) => {
    ctx.status = 201;
    const brand = await store.brands.create(
      { name: body.name, ...(body.slug === undefined ? {} : { slug: body.slug }) },
      auditContextOf(ctx),
    );
    ctx.body = projectAdminBrand(brand);
  });

  contractRoute(router, guards, 'updateBrand', async (ctx, { params, body }) => {
    const brand = await store.brands.update(
      params.id,
      defined({ name: body.name, slug: body.slug, archived: body.archived }),
      auditContextOf(ctx),
    );
    ctx.body = projectAdminBrand(brand);
  });

  contractRoute(router, guards, 'archiveBrand', async (ctx, { params }) => {
    ctx.body = projectAdminBrand(await store.brands.archive(params.id, auditContextOf(ctx)));
  });

  contractRoute(router, guards, 'getBrandsOverview', async (ctx) => {
    const overview = await store.brands.overview();
    ctx.body = overview.map(({ brand, productCount }) => ({
      id: brand.id,
      name: brand.name,
      slug: brand.slug,
      archived: brand.archived,
      productCount,
    }));
  });

  contractRoute(router, guards, 'listWebChannels', async (ctx) => {
    const channels = await store.webChannels.list();
    ctx.body = { channels: channels.map(({ slug, name }) => ({ slug, name })) };
  });

  contractRoute(router, guards, 'createWebChannel', async (ctx, { body }) => {
    if ((await store.webChannels.get(body.slug)) !== undefined) {
      throw ServiceError.of('VALIDATION_ERROR', `Web channel "${body.slug}" already exists`, {
        details: { field: 'slug', reason: 'already exists' },
      });
    }
    const channel = await store.webChannels.create({ slug: body.slug, name: body.name }, auditContextOf(ctx));
    ctx.status = 201;
    ctx.body = { slug: channel.slug, name: channel.name };
  });

  contractRoute(router, guards, 'updateWebChannel', async (ctx, { body }) => {
    if ((await store.webChannels.get(body.slug)) === undefined) {
      throw new ServiceError(404, 'NOT_FOUND', `Web channel "${body.slug}" not found`);
    }
    const channel = await store.webChannels.rename(body.slug, body.name, auditContextOf(ctx));
    ctx.body = { slug: channel.slug, name: channel.name };
  });
}
