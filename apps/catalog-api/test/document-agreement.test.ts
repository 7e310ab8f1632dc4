import { type DocumentRequestValidator, documentRequestValidator } from '@catalog/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

type Json = Record<string, unknown>;

interface Edge {
  readonly what: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** The document's path template, and the path sent. */
  readonly template: string;
  readonly path?: () => string;
  readonly query?: Record<string, string>;
  readonly body?: () => unknown;
  readonly headers?: Record<string, string>;
  /** What the server answers (README, spec 4.1): the document must agree with it. */
  readonly status: number;
  /** A refusal the document cannot state (a rule across parameters): it accepts what the server refuses. */
  readonly acrossParameters?: true;
}

let stack: Stack;
let admin: string;
let reader: string;
let served: DocumentRequestValidator;
let product: Json & { id: string };
let brand: Json & { id: string };
const FOREIGN_ID = '0b6f3c52-6a36-4a8e-9a55-2f2d2b1e6c11';

beforeAll(async () => {
  stack = await startStack();
  admin = await stack.idToken(['admin']);
  reader = (await stack.m2mToken(['products.read'])).token;
  const document = await stack.call<Json>('/openapi.json');
  expect(document.status).toBe(200);
  served = documentRequestValidator(document.body);
  const write = (path: string, body: Json) =>
    stack.call<Json & { id: string }>(path, { method: 'POST', token: admin, body });
  product = (await write('/products', { productCode: 'DOC-1', name: 'Documented' })).body;
  brand = (await write('/brands', { name: 'Documented brand', slug: 'documented-brand' })).body;
  expect([typeof product.id, typeof brand.id]).toEqual(['string', 'string']);
}, 180_000);
afterAll(() => stack?.stop());

/** A record exactly as the admin reads show it, with a new productCode. */
const asRead = (productCode: string) => ({ ...product, productCode });

const EDGES: readonly Edge[] = [
  {
    what: 'order=up without sort (ignored, spec 4.1)',
    method: 'GET',
    template: '/products/search',
    query: { order: 'up' },
    status: 200,
  },
  {
    what: 'an empty order without sort',
    method: 'GET',
    template: '/products/search',
    query: { order: '' },
    status: 200,
  },
  {
    what: 'order=asc with sort',
    method: 'GET',
    template: '/products/search',
    query: { sort: 'name', order: 'asc' },
    status: 200,
  },
  {
    what: 'order=up with sort (INVALID_SORT)',
    method: 'GET',
    template: '/products/search',
    query: { sort: 'name', order: 'up' },
    status: 400,
    acrossParameters: true,
  },
  {
    what: 'an unknown sort column',
    method: 'GET',
    template: '/products/search',
    query: { sort: 'colour' },
    status: 400,
  },
  { what: 'size 100', method: 'GET', template: '/products/search', query: { size: '100' }, status: 200 },
  { what: 'size 101', method: 'GET', template: '/products/search', query: { size: '101' }, status: 400 },
  { what: 'size abc', method: 'GET', template: '/products/search', query: { size: 'abc' }, status: 400 },
  {
    what: 'includeArchived=yes',
    method: 'GET',
    template: '/products/search',
    query: { includeArchived: 'yes' },
    status: 400,
  },
  {
    what: 'a product as reads show it (id, createdAt, updatedAt)',
    method: 'POST',
    template: '/products',
    body: () => asRead('DOC-2'),
    status: 201,
  },
  {
    what: 'a product with only createdAt and updatedAt',
    method: 'POST',
    template: '/products',
    body: () => ({
      productCode: 'DOC-3',
      name: 'x',
      createdAt: '2001-01-01T00:00:00Z',
      updatedAt: '2001-01-01T00:00:00Z',
    }),
    status: 201,
  },
  {
    what: 'a product whose id is not a UUID',
    method: 'POST',
    template: '/products',
    body: () => ({ ...asRead('DOC-4'), id: 'not-a-uuid' }),
    status: 400,
  },
  {
    what: 'a product with an unknown field',
    method: 'POST',
    template: '/products',
    body: () => ({ productCode: 'DOC-5', name: 'x', colour2: 'red' }),
    status: 400,
  },
  {
    what: 'a product without a name',
    method: 'POST',
    template: '/products',
    body: () => ({ productCode: 'DOC-6' }),
    status: 400,
  },
  {
    what: 'relation entries as reads show them (productCode, erpCode, source: reverse)',
    method: 'POST',
    template: '/products',
    body: () => ({
      productCode: 'DOC-7',
      name: 'Related',
      relatedProducts: [
        { productId: product.id, relationType: 'required', qty: 1, productCode: 'DOC-1', erpCode: '' },
        { productId: FOREIGN_ID, relationType: 'required', qty: 1, source: 'reverse' },
      ],
    }),
    status: 201,
  },
  {
    what: 'PUT of a product as reads show it',
    method: 'PUT',
    template: '/products/{productId}',
    path: () => `/products/${product.id}`,
    body: () => asRead('DOC-1'),
    headers: { 'If-Match': '*' },
    status: 200,
  },
  {
    what: 'PUT of a product without If-Match (428: a product PUT must name the read it starts from)',
    method: 'PUT',
    template: '/products/{productId}',
    path: () => `/products/${product.id}`,
    body: () => asRead('DOC-1'),
    status: 428,
  },
  {
    what: 'PATCH of a product with a merge patch (a value and a null)',
    method: 'PATCH',
    template: '/products/{productId}',
    path: () => `/products/${product.id}`,
    body: () => ({ costPrice: 40.5, internalNote: null }),
    headers: { 'If-Match': '*', 'Content-Type': 'application/merge-patch+json' },
    status: 200,
  },
  {
    what: 'PATCH removing productCode, which a product cannot be without',
    method: 'PATCH',
    template: '/products/{productId}',
    path: () => `/products/${product.id}`,
    body: () => ({ productCode: null }),
    headers: { 'If-Match': '*', 'Content-Type': 'application/merge-patch+json' },
    status: 400,
  },
  {
    what: 'PATCH with a field the record does not have',
    method: 'PATCH',
    template: '/products/{productId}',
    path: () => `/products/${product.id}`,
    body: () => ({ colour: 'teal', shade: 'dark' }),
    headers: { 'If-Match': '*', 'Content-Type': 'application/merge-patch+json' },
    status: 400,
  },
  {
    what: 'a brand as reads show it',
    method: 'PUT',
    template: '/brands/{id}',
    path: () => `/brands/${brand.id}`,
    body: () => brand,
    headers: { 'If-Match': '*' },
    status: 200,
  },
  {
    what: 'PATCH of a brand with a merge patch',
    method: 'PATCH',
    template: '/brands/{id}',
    path: () => `/brands/${brand.id}`,
    body: () => ({ name: 'Documented brand' }),
    headers: { 'If-Match': '*', 'Content-Type': 'application/merge-patch+json' },
    status: 200,
  },
  {
    what: 'a brand with a foreign id and times',
    method: 'POST',
    template: '/brands',
    body: () => ({ ...brand, id: 'any', name: 'Second brand', slug: 'second-brand' }),
    status: 201,
  },
];

describe('the served OpenAPI document agrees with the server on requests, as a third-party validator reads it', () => {
  it.each(EDGES)('$what: the server answers $status and the document agrees', async (edge) => {
    const path = edge.path?.() ?? edge.template;
    const query = edge.query ?? {};
    const body = edge.body?.();
    const search = new URLSearchParams(query).toString();
    const reply = await stack.call(`${path}${search === '' ? '' : `?${search}`}`, {
      method: edge.method,
      token: edge.method === 'GET' ? reader : admin,
      ...(body === undefined ? {} : { body }),
      ...(edge.headers === undefined ? {} : { headers: edge.headers }),
    });
    expect(reply.status, reply.text).toBe(edge.status);
    const headers = edge.headers ?? {};
    const problems = served.problems({ method: edge.method, path: edge.template, query, headers, body });
    // What the server accepts the document accepts; what the document refuses the server refuses.
    if (reply.status < 400) expect(problems).toEqual([]);
    if (problems.length > 0) expect(reply.status).toBeGreaterThanOrEqual(400);
    // And it refuses each refusal it can state, so that a looser document is caught too.
    if (reply.status >= 400 && edge.acrossParameters === undefined) expect(problems).not.toEqual([]);
  });

  it('stores none of the server-set fields a write sends', async () => {
    const sent = {
      ...asRead('DOC-8'),
      id: FOREIGN_ID,
      createdAt: '2001-01-01T00:00:00.000Z',
      updatedAt: '2001-01-01T00:00:00.000Z',
    };
    const reply = await stack.call<Json>('/products', { method: 'POST', token: admin, body: sent });
    expect(reply.status).toBe(201);
    expect(reply.body.id).not.toBe(FOREIGN_ID);
    expect(reply.body.createdAt).not.toBe(sent.createdAt);
    expect(reply.body.updatedAt).not.toBe(sent.updatedAt);
    const renamed = await stack.call<Json>(`/brands/${brand.id}`, {
      method: 'PUT',
      token: admin,
      headers: { 'If-Match': '*' },
      body: { ...brand, id: FOREIGN_ID, createdAt: '2001-01-01T00:00:00.000Z', name: 'Renamed brand' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: brand.id, createdAt: brand.createdAt, name: 'Renamed brand' });
  });
});
