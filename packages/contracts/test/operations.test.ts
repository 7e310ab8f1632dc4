import { describe, expect, it } from 'vitest';
import { CATALOG_OPERATIONS, catalogOperation } from '../src/index.ts';

describe('operations and who may call them (spec 4.1, 4.2, 5.4)', () => {
  it('requires products.read for GET /products/search, /products/{productId} and /products (spec 5.4)', () => {
    for (const id of ['searchProducts', 'getProduct', 'listProducts'] as const) {
      expect(catalogOperation(id).access).toEqual({ kind: 'scoped', scope: 'products.read' });
    }
  });

  it('requires brands.read for GET /brands, /brands/search and /brands/{id} (spec 5.4)', () => {
    for (const id of ['listBrands', 'searchBrands', 'getBrand'] as const) {
      expect(catalogOperation(id).access).toEqual({ kind: 'scoped', scope: 'brands.read' });
    }
  });

  it('denies to every M2M token the conveniences, every write, the client-management and the webhook routes (spec 4.1, 4.2)', () => {
    const adminOnly = [
      'getBrandsOverview',
      'findExistingProductsForPreview',
      'batchGetProducts',
      'checkDuplicateProducts',
      'createProduct',
      'updateProduct',
      'archiveProduct',
      'createBrand',
      'updateBrand',
      'archiveBrand',
      'listM2MClients',
      'createM2MClient',
      'updateM2MClient',
      'revokeM2MClient',
      'getSecretRotationInstructions',
      'listWebhookSubscriptions',
      'createWebhookSubscription',
      'getWebhookSubscription',
      'patchWebhookSubscription',
      'deleteWebhookSubscription',
      'rotateWebhookSecret',
      'listWebhookDeliveries',
      'redeliverWebhookEvents',
    ] as const;
    for (const id of adminOnly) expect(catalogOperation(id).access, id).toEqual({ kind: 'admin' });
  });

  it('gives every write on products and brands the admin rule, whatever the path (spec 1)', () => {
    for (const operation of CATALOG_OPERATIONS.values()) {
      const catalogue = operation.path.startsWith('/products') || operation.path.startsWith('/brands');
      if (catalogue && operation.method !== 'GET')
        expect(operation.access.kind, operation.operationId).toBe('admin');
    }
  });

  it('answers 403 to M2M tokens on every /clients* route (spec 4.1)', () => {
    const clients = [...CATALOG_OPERATIONS.values()].filter((op) => op.path.startsWith('/clients'));
    expect(clients.length).toBeGreaterThanOrEqual(10);
    for (const operation of clients) expect(operation.access.kind, operation.operationId).toBe('admin');
  });

  it('leaves only the health and readiness probes, the documentation and the console page public', () => {
    const open = [...CATALOG_OPERATIONS.values()]
      .filter((op) => op.access.kind === 'public')
      .map((op) => op.path);
    expect(open.sort()).toEqual(['/console', '/docs', '/health', '/openapi.json', '/ready']);
  });

  it("gives the admins' search preview to administrators only", () => {
    expect(catalogOperation('previewProductSearch').access.kind).toBe('admin');
  });
});
