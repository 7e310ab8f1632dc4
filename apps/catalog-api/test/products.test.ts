import { PRODUCT_FIELDS, type ProductSearchResponse, RELATED_PRODUCT_FIELDS } from '@catalog/contracts';
import type { ProductRecord } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

// The body as the contract types it; `data` entries are read field by field in these tests.
type SearchBody = Omit<ProductSearchResponse, 'data'> & { data: Record<string, unknown>[] };

let stack: Stack;
let token: string;
let sample: ProductRecord;

const search = (query: string, options: { token?: string } = {}) =>
  stack.call<SearchBody>(`/products/search${query}`, {
    token: options.token ?? token,
    operation: 'searchProducts',
  });

beforeAll(async () => {
  stack = await startStack({ demoProducts: 120 });
  token = (await stack.m2mToken(['products.read'])).token;
  const all = await stack.store.products.getMany(
    (await stack.store.productSearch.search({ size: 100, includeArchived: true })).products.map((p) => p.id),
  );
  const withRelations = all.find((p) => p.relatedProducts.some((r) => r.source === 'reverse') && !p.archived);
  sample = withRelations ?? (all[0] as ProductRecord);
});
afterAll(() => stack?.stop());

describe('GET /products/search parameters (spec 4.1)', () => {
  it('defaults to size 20 from 0 and answers data, pagination, syncToken and meta', async () => {
    const reply = await search('');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toHaveLength(20);
    expect(reply.body.pagination).toMatchObject({ from: 0, size: 20, hasMore: true });
    expect(reply.body.syncToken).toBe(reply.body.pagination.syncToken);
    expect(typeof reply.body.meta.queryTimeMs).toBe('number');
    expect(typeof reply.body.meta.source).toBe('string');
  });

  it('refuses size over 100 with 400 VALIDATION_ERROR and details {field, reason}', async () => {
    const reply = await search('?size=101');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'size' } });
  });

  it('refuses a negative from with 400 VALIDATION_ERROR', async () => {
    expect((await search('?from=-1')).body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'from' },
    });
  });

  it('refuses from + size beyond 10,000 with 400 VALIDATION_ERROR (use syncToken beyond it)', async () => {
    const reply = await search('?from=9990&size=20');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('refuses q longer than 256 characters with SEARCH_TERM_TOO_LONG', async () => {
    const reply = await search(`?q=${'a'.repeat(257)}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'SEARCH_TERM_TOO_LONG' });
    expect((await search(`?q=${'a'.repeat(256)}`)).status).toBe(200);
  });

  it('refuses an unknown sort with INVALID_SORT_FIELD and a message listing the allowed column IDs', async () => {
    const reply = await search('?sort=colour');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'INVALID_SORT_FIELD' });
    const message = (reply.body as unknown as { message: string }).message;
    for (const id of [
      'name',
      'code',
      'brand',
      'price',
      'category',
      'department',
      'subDepartment',
      'supplierCost',
      'createdAt',
      'updatedAt',
    ]) {
      expect(message).toContain(id);
    }
  });

  it('refuses an order other than asc/desc with INVALID_SORT when sort is present, and ignores order without sort', async () => {
    expect((await search('?sort=name&order=up')).body).toMatchObject({ error: 'INVALID_SORT' });
    expect((await search('?order=up')).status).toBe(200);
  });

  it('refuses a malformed updatedAfter or boolean with 400 VALIDATION_ERROR', async () => {
    expect((await search('?updatedAfter=yesterday')).body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect((await search('?includeArchived=yes')).body).toMatchObject({ error: 'VALIDATION_ERROR' });
    expect((await search('?displayOnWeb=1')).body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('refuses a tampered syncToken with INVALID_SYNC_TOKEN', async () => {
    const first = await search('?size=5');
    const cursor = first.body.syncToken ?? '';
    // A character well inside the signature: the last base64url character of a 32-byte HMAC
    // carries padding bits, so changing it alone may decode to the same bytes.
    const at = cursor.length - 10;
    const tampered = `${cursor.slice(0, at)}${cursor[at] === 'A' ? 'B' : 'A'}${cursor.slice(at + 1)}`;
    expect(tampered).not.toBe(cursor);
    const reply = await search(`?size=5&syncToken=${encodeURIComponent(tampered)}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'INVALID_SYNC_TOKEN' });
    expect(reply.body).not.toHaveProperty('data');
  });

  it('refuses a syncToken used with a different query with INVALID_SYNC_TOKEN', async () => {
    const first = await search('?size=5&sort=name&order=asc');
    const reply = await search(
      `?size=5&sort=price&order=asc&syncToken=${encodeURIComponent(first.body.syncToken ?? '')}`,
    );
    expect(reply.body).toMatchObject({ error: 'INVALID_SYNC_TOKEN' });
  });

  it('follows syncToken until null and sees every non-archived product exactly once (spec 4.4)', async () => {
    const seen: string[] = [];
    let query = '?updatedAfter=1970-01-01T00:00:00Z&size=17';
    for (let page = 0; page < 50; page += 1) {
      const reply = await search(query);
      expect(reply.status).toBe(200);
      seen.push(...reply.body.data.map((p) => p.id as string));
      if (reply.body.syncToken === null) {
        expect(reply.body.pagination.hasMore).toBe(false);
        break;
      }
      query = `?updatedAfter=1970-01-01T00:00:00Z&size=17&syncToken=${encodeURIComponent(reply.body.syncToken)}`;
    }
    const active = (await stack.store.productSearch.search({ size: 1, updatedAfter: '1970-01-01T00:00:00Z' }))
      .total;
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(active);
  });

  it('excludes archived products unless includeArchived=true', async () => {
    const without = await search('?size=100&includeArchived=false');
    const withArchived = await search('?size=1&includeArchived=true');
    expect(withArchived.body.pagination.total).toBeGreaterThan(without.body.pagination.total);
  });

  it('filters brandName exactly', async () => {
    const brand = sample.brandName;
    const reply = await search(`?size=100&brandName=${encodeURIComponent(brand)}`);
    expect(reply.body.data.length).toBeGreaterThan(0);
    for (const product of reply.body.data) expect(product.brandName).toBe(brand);
  });

  it('sorts by a column ID: code sorts by productCode, ascending when asked', async () => {
    const reply = await search('?size=50&sort=code&order=asc&fields=productCode');
    const codes = reply.body.data.map((p) => p.productCode as string);
    expect(codes).toEqual([...codes].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  });

  it('finds a product by its exact productCode first (identifier lookup)', async () => {
    const reply = await search(`?q=${encodeURIComponent(sample.productCode)}`);
    expect(reply.body.data[0]?.id).toBe(sample.id);
  });

  it('adds aggregations per brandName, category, department and stockType when includeAggregations=true', async () => {
    const reply = await search('?size=1&includeAggregations=true');
    expect(Object.keys(reply.body.aggregations ?? {}).sort()).toEqual([
      'brandName',
      'category',
      'department',
      'stockType',
    ]);
    expect((await search('?size=1')).body).not.toHaveProperty('aggregations');
  });
});

describe('projection (spec 2.1, 5.11)', () => {
  it('returns only allowlisted fields, never internal status, notes, spares, cost, margin or updatedAt', async () => {
    const reply = await search('?size=100&includeArchived=true');
    for (const product of reply.body.data) {
      for (const key of Object.keys(product)) expect(PRODUCT_FIELDS as readonly string[]).toContain(key);
      for (const relation of product.relatedProducts as Record<string, unknown>[]) {
        for (const key of Object.keys(relation))
          expect(RELATED_PRODUCT_FIELDS as readonly string[]).toContain(key);
        expect(relation).not.toHaveProperty('productCode');
      }
    }
    expect(reply.text).not.toMatch(/internalNote|costPrice|marginPercent|spares|updatedAt|"status"/);
  });

  it('narrows with fields, keeps id, and silently drops names outside the allowlist', async () => {
    const reply = await search('?size=3&fields=name,internalNote,costPrice,bogus');
    expect(reply.status).toBe(200);
    for (const product of reply.body.data) expect(Object.keys(product).sort()).toEqual(['id', 'name']);
  });

  it('gives a bound client an explicit displayOnWeb for its channel and filters by it', async () => {
    const channel =
      Object.keys(sample.webVisibility)[0] ?? (await stack.store.webChannels.list())[0]?.slug ?? '';
    const bound = (await stack.m2mToken(['products.read'], { channel })).token;
    const all = await search('?size=100&includeArchived=true', { token: bound });
    for (const product of all.body.data) expect(typeof product.displayOnWeb).toBe('boolean');
    const visible = await search('?size=100&includeArchived=true&displayOnWeb=true', { token: bound });
    for (const product of visible.body.data) expect(product.displayOnWeb).toBe(true);
    const hidden = await search('?size=100&includeArchived=true&displayOnWeb=false', { token: bound });
    for (const product of hidden.body.data) expect(product.displayOnWeb).toBe(false);
    expect(visible.body.pagination.total + hidden.body.pagination.total).toBe(all.body.pagination.total);
  });
});

describe('GET /products/{productId} (spec 4.1)', () => {
  it('returns the fully enriched product with productCode and erpCode on each relation, reverse entries marked', async () => {
    const reply = await stack.call<Record<string, unknown>>(`/products/${sample.id}`, {
      token,
      operation: 'getProduct',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(sample.id);
    const relations = reply.body.relatedProducts as Record<string, unknown>[];
    expect(relations.length).toBe(sample.relatedProducts.length);
    for (const relation of relations) {
      expect(relation).toHaveProperty('productCode');
      expect(relation).toHaveProperty('erpCode');
      expect(relation).not.toHaveProperty('note');
    }
    expect(relations.some((r) => r.source === 'reverse')).toBe(
      sample.relatedProducts.some((r) => r.source === 'reverse'),
    );
  });

  it('answers 404 NOT_FOUND for an unknown id', async () => {
    const reply = await stack.call('/products/00000000-0000-4000-8000-000000000000', {
      token,
      operation: 'getProduct',
    });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
  });
});

type ListBody = { products: Record<string, unknown>[]; lastKey: string | null };

/** lastKey is strict, padded base64 (the contract's "Base64 cursor") of the position after the page's last product. */
async function expectCursorAfterLastProduct(body: ListBody): Promise<void> {
  const lastKey = body.lastKey ?? '';
  expect(lastKey).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/);
  const cursor = JSON.parse(Buffer.from(lastKey, 'base64').toString('utf8'));
  const last = await stack.store.products.get(String(body.products.at(-1)?.id));
  expect(cursor).toEqual({ afterSeq: last?.seq });
}

describe('GET /products, deprecated (spec 2.2, 4.1, 9)', () => {
  it('returns the reduced fields of active products with a Deprecation header and a base64 lastKey', async () => {
    const reply = await stack.call<ListBody>('/products', {
      token,
      operation: 'listProducts',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.deprecation).toBeDefined();
    expect(reply.body.products).toHaveLength(20);
    for (const product of reply.body.products) {
      expect(Object.keys(product).sort()).toEqual(
        [
          'brandName',
          'category',
          'createdAt',
          'description',
          'id',
          'imageUrl',
          'price',
          'productCode',
        ].sort(),
      );
    }
    await expectCursorAfterLastProduct(reply.body);
    // A shorter page: a one-digit position, whose encoding needs padding.
    const short = await stack.call<ListBody>('/products?limit=3', { token, operation: 'listProducts' });
    await expectCursorAfterLastProduct(short.body);
  });

  it('pages with lastKey to a null lastKey, returning only status-active products, archived included', async () => {
    const ids: string[] = [];
    let lastKey: string | null = null;
    do {
      const path: string = `/products?limit=50${lastKey ? `&lastKey=${encodeURIComponent(lastKey)}` : ''}`;
      const reply = await stack.call<{ products: { id: string }[]; lastKey: string | null }>(path, { token });
      ids.push(...reply.body.products.map((p) => p.id));
      lastKey = reply.body.lastKey;
    } while (lastKey !== null);
    const records = await stack.store.products.getMany(ids);
    for (const record of records) expect(record.status).toBe('active');
    expect(records.some((record) => record.archived)).toBe(true);
  });

  it('refuses a lastKey it did not issue with 400 VALIDATION_ERROR', async () => {
    const reply = await stack.call('/products?lastKey=bm90LWEtY3Vyc29y', {
      token,
      operation: 'listProducts',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});
