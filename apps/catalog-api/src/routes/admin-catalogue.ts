import { ServiceError } from '@catalog/contracts';
import {
  type Brand,
  type ExpectedVersion,
  type ProductInput,
  type ProductRecord,
  registryVersion,
} from '@catalog/store';
import type Router from '@koa/router';
import { patchAdminBrand, replaceAdminBrand } from '../domain/brands/admin-brand-writes.ts';
import { patchAdminProduct, replaceAdminProduct } from '../domain/products/admin-product-writes.ts';
import { findDuplicates, partitionExistingCodes } from '../domain/products/find-duplicates.ts';
import type { AppState } from '../http/app-state.ts';
import { auditContextOf } from '../http/audit-context.ts';
import { contractRoute, type RouteContext } from '../http/contract-route.ts';
import { defined } from '../http/defined.ts';
import {
  type PreconditionRule,
  recordVersion,
  sendEntityTag,
  type TagTarget,
  writeIfMatch,
} from '../http/entity-tags.ts';
import { projectAdminBrand, projectAdminProduct } from '../projection/project-admin.ts';
import type { RouteDeps } from './route-deps.ts';

/**
 * The validated admin record as the store's input: top-level read-only fields are already gone; the
 * store's write path drops the derived relation entries a record read back carries.
 */
const productInput = (body: object) => body as ProductInput;

/** Product ids are stored and compared in lower case (write-rules/product-write.ts): so is the tag's key. */
const productTag = (id: string): TagTarget => ({ kind: 'product', key: id.toLowerCase() });
const brandTag = (id: string): TagTarget => ({ kind: 'brand', key: id });
/** The channels are written through one path, whose tag is the whole registry's (registryVersion). */
const CHANNEL_REGISTRY_TAG: TagTarget = { kind: 'web-channels', key: 'registry' };

/** The admin catalogue routes of decisions.md: product and brand writes and the admin conveniences. */
export function adminCatalogueRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  /** A product write under the request's If-Match, answered with the admin record and its new ETag. */
  const answerProductWrite = async (
    ctx: RouteContext,
    id: string,
    rule: PreconditionRule,
    write: (expected: ExpectedVersion) => Promise<ProductRecord>,
  ) => {
    ctx.body = projectAdminProduct(await writeIfMatch(ctx, productTag(id), rule, write, recordVersion));
  };
  const answerBrandWrite = async (
    ctx: RouteContext,
    id: string,
    rule: PreconditionRule,
    write: (expected: ExpectedVersion) => Promise<Brand>,
  ) => {
    ctx.body = projectAdminBrand(await writeIfMatch(ctx, brandTag(id), rule, write, recordVersion));
  };

  contractRoute(router, guards, 'createProduct', async (ctx, { body }) => {
    const product = await store.products.create(productInput(body), auditContextOf(ctx));
    ctx.status = 201;
    sendEntityTag(ctx, productTag(product.id), product.version);
    ctx.body = projectAdminProduct(product);
  });

  contractRoute(router, guards, 'getAdminProduct', async (ctx, { params }) => {
    const product = await store.products.get(params.productId);
    if (product === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Product not found');
    sendEntityTag(ctx, productTag(product.id), product.version);
    ctx.body = projectAdminProduct(product);
  });

  contractRoute(router, guards, 'updateProduct', (ctx, { params: { productId: id }, body }) =>
    answerProductWrite(ctx, id, 'required', (expected) =>
      replaceAdminProduct({ store, id, body, expected, audit: auditContextOf(ctx) }),
    ),
  );

  contractRoute(router, guards, 'patchProduct', (ctx, { params: { productId: id }, body }) =>
    answerProductWrite(ctx, id, 'required', (expected) =>
      patchAdminProduct({ store, id, patch: body, expected, audit: auditContextOf(ctx) }),
    ),
  );

  contractRoute(router, guards, 'archiveProduct', (ctx, { params: { productId: id } }) =>
    answerProductWrite(ctx, id, 'optional', (expected) =>
      store.products.archive(id, auditContextOf(ctx), expected),
    ),
  );

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
    sendEntityTag(ctx, brandTag(brand.id), brand.version);
    ctx.body = projectAdminBrand(brand);
  });

  contractRoute(router, guards, 'getAdminBrand', async (ctx, { params }) => {
    const brand = await store.brands.get(params.id);
    if (brand === undefined) throw new ServiceError(404, 'NOT_FOUND', 'Brand not found');
    sendEntityTag(ctx, brandTag(brand.id), brand.version);
    ctx.body = projectAdminBrand(brand);
  });

  contractRoute(router, guards, 'updateBrand', (ctx, { params: { id }, body }) =>
    answerBrandWrite(ctx, id, 'required', (expected) =>
      replaceAdminBrand({ store, id, body, expected, audit: auditContextOf(ctx) }),
    ),
  );

  contractRoute(router, guards, 'patchBrand', (ctx, { params: { id }, body }) =>
    answerBrandWrite(ctx, id, 'required', (expected) =>
      patchAdminBrand({ store, id, patch: body, expected, audit: auditContextOf(ctx) }),
    ),
  );

  contractRoute(router, guards, 'archiveBrand', (ctx, { params: { id } }) =>
    answerBrandWrite(ctx, id, 'optional', (expected) =>
      store.brands.archive(id, auditContextOf(ctx), expected),
    ),
  );

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
    sendEntityTag(ctx, CHANNEL_REGISTRY_TAG, registryVersion(channels));
    ctx.body = { channels: channels.map(({ slug, name }) => ({ slug, name })) };
  });

  contractRoute(router, guards, 'createWebChannel', async (ctx, { body }) => {
    if ((await store.webChannels.get(body.slug)) !== undefined) {
      throw ServiceError.of('VALIDATION_ERROR', `Web channel "${body.slug}" already exists`, {
        details: { field: 'slug', reason: 'already exists' },
      });
    }
    // The registry's new tag is not the channel's version: the answer carries none (a GET lists it).
    const channel = await writeIfMatch(ctx, CHANNEL_REGISTRY_TAG, 'optional', (expected) =>
      store.webChannels.create({ slug: body.slug, name: body.name }, auditContextOf(ctx), expected),
    );
    ctx.status = 201;
    ctx.body = { slug: channel.slug, name: channel.name };
  });

  contractRoute(router, guards, 'updateWebChannel', async (ctx, { body }) => {
    if ((await store.webChannels.get(body.slug)) === undefined) {
      throw new ServiceError(404, 'NOT_FOUND', `Web channel "${body.slug}" not found`);
    }
    const channel = await writeIfMatch(ctx, CHANNEL_REGISTRY_TAG, 'optional', (expected) =>
      store.webChannels.rename(body.slug, body.name, auditContextOf(ctx), expected),
    );
    ctx.body = { slug: channel.slug, name: channel.name };
  });
}
