import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

interface AdminProduct {
  id: string;
  productCode: string;
  name: string;
  archived: boolean;
  internalNote?: string;
  costPrice?: number | null;
  relatedProducts: { productId: string; relationType: string; qty: number; note?: string }[];
  updatedAt: string;
}

let stack: Stack;
let admin: string;
let reader: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 10 });
  admin = await stack.idToken(['admin']);
  reader = (await stack.m2mToken(['products.read', 'brands.read'])).token;
});
afterAll(() => stack?.stop());

const post = <T>(
  path: string,
  body: unknown,
  operation: Parameters<Stack['call']>[1] extends infer O ? O : never,
) => stack.call<T>(path, { method: 'POST', token: admin, body, ...(operation as object) });

describe('admin product writes (decisions: Catalogue model)', () => {
  it('creates a product from the internal record and hides its internal fields from M2M readers', async () => {
    const created = await post<AdminProduct>(
      '/products',
      {
        productCode: 'ADM-001',
        name: 'Admin widget',
        internalNote: 'supplier is late',
        costPrice: 12.5,
        marginPercent: 30,
        spares: [],
        status: 'active',
      },
      { operation: 'createProduct' },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      productCode: 'ADM-001',
      internalNote: 'supplier is late',
      costPrice: 12.5,
    });
    const external = await stack.call<Record<string, unknown>>(`/products/${created.body.id}`, {
      token: reader,
    });
    expect(external.body.name).toBe('Admin widget');
    expect(external.text).not.toMatch(/supplier is late|costPrice|marginPercent|internalNote/);
  });

  it('keeps relation notes for administrators and derives the reverse entry on the target', async () => {
    const target = await post<AdminProduct>('/products', { productCode: 'ADM-T', name: 'Target' }, {});
    const source = await post<AdminProduct>(
      '/products',
      {
        productCode: 'ADM-S',
        name: 'Source',
        relatedProducts: [
          { productId: target.body.id, relationType: 'required', qty: 2, note: 'staff only' },
        ],
      },
      {},
    );
    expect(source.body.relatedProducts).toEqual([
      { productId: target.body.id, relationType: 'required', qty: 2, note: 'staff only' },
    ]);
    const external = await stack.call<{ relatedProducts: Record<string, unknown>[] }>(
      `/products/${target.body.id}`,
      {
        token: reader,
        operation: 'getProduct',
      },
    );
    expect(external.body.relatedProducts).toContainEqual(
      expect.objectContaining({ productId: source.body.id, source: 'reverse', relationType: 'required' }),
    );
  });

  it('replaces a product with PUT, changing updatedAt, and archives it with DELETE', async () => {
    const created = await post<AdminProduct>('/products', { productCode: 'ADM-P', name: 'Before' }, {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await stack.call<AdminProduct>(`/products/${created.body.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': String(created.headers.etag) },
      body: { productCode: 'ADM-P', name: 'After' },
      operation: 'updateProduct',
    });
    expect(replaced.body.name).toBe('After');
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));
    const archived = await stack.call<AdminProduct>(`/products/${created.body.id}`, {
      method: 'DELETE',
      token: admin,
      operation: 'archiveProduct',
    });
    expect(archived.body.archived).toBe(true);
  });

  it('answers 404 when replacing an unknown product and 400 for an invalid record, changing nothing', async () => {
    const before = await stack.store.products.count();
    const missing = await stack.call('/products/00000000-0000-4000-8000-000000000000', {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': '*' },
      body: { productCode: 'X', name: 'X' },
    });
    expect(missing.status).toBe(404);
    const invalid = await post(
      '/products',
      { productCode: '', name: 'No code' },
      { operation: 'createProduct' },
    );
    expect(invalid.status).toBe(400);
    expect(await stack.store.products.count()).toBe(before);
  });
});

describe('admin conveniences (decisions: Catalogue model)', () => {
  it('batch-get returns the records found and the ids missing', async () => {
    const created = await post<AdminProduct>('/products', { productCode: 'BATCH-1', name: 'Batch' }, {});
    const missingId = '00000000-0000-4000-8000-000000000001';
    const reply = await post<{ products: AdminProduct[]; missingIds: string[] }>(
      '/products/batch-get',
      { ids: [created.body.id, missingId] },
      { operation: 'batchGetProducts' },
    );
    expect(reply.body.products.map((p) => p.id)).toEqual([created.body.id]);
    expect(reply.body.missingIds).toEqual([missingId]);
  });

  it('check-duplicates finds a product sharing a code, whatever the case, and says what matched', async () => {
    await post('/products', { productCode: 'DUP-42', erpCode: 'ERP-42', name: 'Original' }, {});
    const reply = await post<{ duplicates: { productCode: string; matchedOn: string[] }[] }>(
      '/products/check-duplicates',
      { productCode: 'dup-42', erpCode: 'erp-42' },
      { operation: 'checkDuplicateProducts' },
    );
    expect(reply.body.duplicates).toEqual([
      expect.objectContaining({ productCode: 'DUP-42', matchedOn: ['productCode', 'erpCode'] }),
    ]);
  });

  it('existing-for-preview splits codes into existing and missing', async () => {
    await post('/products', { productCode: 'PREVIEW-1', name: 'Preview' }, {});
    const reply = await post<{ existing: { productCode: string }[]; missing: string[] }>(
      '/products/existing-for-preview',
      { productCodes: ['PREVIEW-1', 'PREVIEW-404'] },
      { operation: 'findExistingProductsForPreview' },
    );
    expect(reply.body.existing.map((e) => e.productCode)).toEqual(['PREVIEW-1']);
    expect(reply.body.missing).toEqual(['PREVIEW-404']);
  });
});

describe('admin brand writes and overview', () => {
  it('creates, renames and archives a brand; the overview counts its products', async () => {
    const created = await post<{ id: string; slug: string }>(
      '/brands',
      { name: 'Acme Admin', slug: 'acme-admin' },
      { operation: 'createBrand' },
    );
    expect(created.status).toBe(201);
    const renamed = await stack.call<{ name: string }>(`/brands/${created.body.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': String(created.headers.etag) },
      body: { name: 'Acme Renamed', slug: created.body.slug, archived: false },
      operation: 'updateBrand',
    });
    expect(renamed.body.name).toBe('Acme Renamed');
    await post('/products', { productCode: 'ACME-1', name: 'Acme thing', brandName: 'Acme Renamed' }, {});
    const overview = await stack.call<{ id: string; productCount: number }[]>('/brands/overview', {
      token: admin,
      operation: 'getBrandsOverview',
    });
    expect(overview.body.find((b) => b.id === created.body.id)?.productCount).toBe(1);
    const archived = await stack.call<{ archived: boolean }>(`/brands/${created.body.id}`, {
      method: 'DELETE',
      token: admin,
      operation: 'archiveBrand',
    });
    expect(archived.body.archived).toBe(true);
    const visible = await stack.call<{ id: string }[]>('/brands', { token: reader });
    expect(visible.body.map((b) => b.id)).not.toContain(created.body.id);
  });
});

describe('web channels (decisions: Catalogue model)', () => {
  it('registers a channel that clients can then be bound to, and renames it', async () => {
    const created = await post<{ slug: string }>(
      '/company-settings/web-channels',
      { slug: 'partner-portal-test', name: 'Partner portal (test)' },
      { operation: 'createWebChannel' },
    );
    expect(created.status).toBe(201);
    const duplicate = await post(
      '/company-settings/web-channels',
      { slug: 'partner-portal-test', name: 'Again' },
      {},
    );
    expect(duplicate.status).toBe(400);
    const renamed = await stack.call<{ name: string }>('/company-settings/web-channels', {
      method: 'PUT',
      token: admin,
      body: { slug: 'partner-portal-test', name: 'Partner portal (EU)' },
      operation: 'updateWebChannel',
    });
    expect(renamed.body.name).toBe('Partner portal (EU)');
    const list = await stack.call<{ channels: { slug: string }[] }>('/company-settings/web-channels', {
      token: admin,
      operation: 'listWebChannels',
    });
    expect(list.body.channels.map((c) => c.slug)).toContain('partner-portal-test');
  });

  it('refuses a slug that is not kebab-case', async () => {
    const reply = await post('/company-settings/web-channels', { slug: 'Trade Portal', name: 'x' }, {});
    expect(reply.status).toBe(400);
  });
});
