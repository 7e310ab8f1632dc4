import { describe, expect, it } from 'vitest';
import {
  type Product,
  type ProductSearchResponse,
  validateAuthServerResponse,
  validateResponse,
} from '../src/index.ts';

const product: Product = {
  id: '0b9d3c1e-7c55-4b7e-9f6a-2f1f0a6c9e11',
  productCode: 'SKU-1',
  name: 'Basin',
  price: 10.5,
  retailPrice: null,
  supplierCost: null,
  imageUrl: null,
  images: [{ url: 'https://cdn.test/a.jpg', name: 'front' }],
  relatedProducts: [
    {
      productId: '7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b',
      relationType: 'required',
      qty: 1,
      source: 'reverse',
    },
  ],
};

const page: ProductSearchResponse = {
  data: [product],
  pagination: { total: 1, totalIsLowerBound: false, from: 0, size: 20, hasMore: false, syncToken: null },
  syncToken: null,
  meta: { queryTimeMs: 3, source: 'sqlite' },
};

describe('response validation', () => {
  it('accepts a conforming search page', () => {
    expect(validateResponse('searchProducts', 200, page)).toEqual([]);
  });

  it('refuses a product field outside the allowlist', () => {
    const leaked = { ...page, data: [{ ...product, costPrice: 3 }] };
    expect(validateResponse('searchProducts', 200, leaked)).toEqual([
      { field: 'data.0.costPrice', reason: 'is not allowed' },
    ]);
  });

  it('refuses a relation entry carrying note', () => {
    const leaked = {
      ...product,
      relatedProducts: [{ productId: product.id, relationType: 'optional', qty: 1, note: 'x' }],
    };
    expect(validateResponse('getProduct', 200, leaked)).toEqual([
      { field: 'relatedProducts.0.note', reason: 'is not allowed' },
    ]);
  });

  it('refuses a total above the 10000 cap', () => {
    const capped = { ...page, pagination: { ...page.pagination, total: 10001 } };
    expect(validateResponse('searchProducts', 200, capped)).toMatchObject([{ field: 'pagination.total' }]);
  });

  it('an error body never contains data', () => {
    expect(
      validateResponse('searchProducts', 400, { message: 'bad', error: 'INVALID_SORT', data: [] }),
    ).toEqual([{ field: 'data', reason: 'is not allowed' }]);
  });

  it('the generic 500 body carries no error code', () => {
    expect(validateResponse('getProduct', 500, { message: 'Internal error', requestId: 'r1' })).toEqual([]);
    expect(validateResponse('getProduct', 500, { message: 'x', error: 'INTERNAL_ERROR' })).toMatchObject([
      { field: 'error' },
    ]);
  });

  it('gateway rejections carry only message; 401 and 403 may also be service error bodies', () => {
    expect(validateResponse('getProduct', 429, { message: 'Too many requests' })).toEqual([]);
    expect(validateResponse('getProduct', 429, { message: 'Too many requests', error: 'X' })).not.toEqual([]);
    expect(validateResponse('getProduct', 403, { message: 'Forbidden' })).toEqual([]);
    expect(
      validateResponse('getProduct', 403, { message: 'Client revoked', error: 'FORBIDDEN', requestId: 'r' }),
    ).toEqual([]);
  });

  it('brand search errors use code and details', () => {
    const body = {
      message: 'size too large',
      code: 'VALIDATION_ERROR',
      details: { field: 'size', reason: 'max 100' },
    };
    expect(validateResponse('searchBrands', 400, body)).toEqual([]);
    expect(validateResponse('searchBrands', 400, { message: 'x', error: 'VALIDATION_ERROR' })).not.toEqual(
      [],
    );
  });

  it('client validation errors list {field, message} per invalid field', () => {
    const body = {
      message: 'Client name must be at least 3 characters long',
      error: 'INVALID_PARAMETER',
      errors: [{ field: 'clientName', message: 'must be at least 3 characters long' }],
    };
    expect(validateResponse('createM2MClient', 400, body)).toEqual([]);
  });

  it('an undocumented status is reported', () => {
    expect(validateResponse('getHealth', 404, { message: 'x' })).toEqual([
      { field: 'status', reason: '404 is not documented for getHealth' },
    ]);
  });

  it('brands are a raw array of closed records', () => {
    expect(validateResponse('listBrands', 200, [{ id: 'b1', name: 'Acme', slug: 'acme' }])).toEqual([]);
    expect(validateResponse('listBrands', 200, { data: [] })).not.toEqual([]);
  });

  it('token responses and errors of the token server', () => {
    expect(
      validateAuthServerResponse('issueToken', 200, {
        access_token: 'a',
        token_type: 'Bearer',
        expires_in: 3600,
      }),
    ).toEqual([]);
    expect(
      validateAuthServerResponse('issueToken', 400, { error: 'invalid_scope', error_description: 'x' }),
    ).toEqual([]);
    expect(
      validateAuthServerResponse('issueToken', 400, { error: 'access_denied', error_description: 'x' }),
    ).not.toEqual([]);
  });

  it('the key set never carries private key material', () => {
    const key = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1', alg: 'ES256', use: 'sig' };
    expect(validateAuthServerResponse('getJwks', 200, { keys: [key] })).toEqual([]);
    expect(validateAuthServerResponse('getJwks', 200, { keys: [{ ...key, d: 'secret' }] })).toEqual([
      { field: 'keys.0.d', reason: 'is not allowed' },
    ]);
  });
});
