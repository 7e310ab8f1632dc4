import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

type Json = Record<string, unknown>;

let stack: Stack;
let admin: string;
let reader: string;

beforeAll(async () => {
  stack = await startStack();
  admin = await stack.idToken(['admin']);
  reader = (await stack.m2mToken(['products.read'])).token;
});
afterAll(() => stack?.stop());

/** The ETag of the product's admin read: what an editor sends back as If-Match. */
const etagOf = async (path: string) => {
  const read = await stack.call(`/admin${path}`, { token: admin, operation: 'getAdminProduct' });
  expect(read.status, read.text).toBe(200);
  return String(read.headers.etag);
};
/** A create, or a PUT made against the product as it is now (If-Match from a fresh admin read). */
const write = async (method: 'POST' | 'PUT', path: string, body: unknown) =>
  stack.call<Json>(path, {
    method,
    token: admin,
    body,
    operation: method === 'POST' ? 'createProduct' : 'updateProduct',
    ...(method === 'PUT' ? { headers: { 'If-Match': await etagOf(path) } } : {}),
  });
const create = async (body: Json) => {
  const reply = await write('POST', '/products', body);
  expect(reply.status, reply.text).toBe(201);
  return reply.body as Json & { id: string };
};
const adminRecord = async (id: string) =>
  (
    await stack.call<{ products: Json[] }>('/products/batch-get', {
      method: 'POST',
      token: admin,
      body: { ids: [id] },
      operation: 'batchGetProducts',
    })
  ).body.products[0] as Json;

describe('admin writes accept https: and http: URLs with a host only (issue 13: unsafe URLs; issue 26: no host)', () => {
  const UNSAFE_URLS = [
    'javascript:alert(document.cookie)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'https://',
    'http://',
    'https:///cdn.example.com/a.jpg',
    'https://:443/a.jpg',
    'https://?q=a.jpg',
    'https://#a.jpg',
    'https://\\evil.example/a.jpg',
    'https://cdn.example.com@evil.example/a.jpg',
    'https://user:secret@cdn.example.com/a.jpg',
  ];
  const cases: [string, string, Json][] = UNSAFE_URLS.flatMap((url): [string, string, Json][] => [
    ['imageUrl', url, { imageUrl: url }],
    ['images.0.url', url, { images: [{ url, name: 'Front' }] }],
    ['documents.0.url', url, { documents: [{ url, name: 'Manual' }] }],
  ]);
  const reason = 'must be an absolute https or http URL with a host and no user name or password';

  it.each(cases)(
    'POST /products refuses %s = %s with 400 VALIDATION_ERROR naming it, storing nothing',
    async (field, _url, fields) => {
      const before = await stack.store.products.count();
      const reply = await write('POST', '/products', {
        productCode: 'URL-REFUSED',
        name: 'Link',
        ...fields,
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: { field, reason },
      });
      expect(await stack.store.products.count()).toBe(before);
    },
  );

  it.each(cases)(
    'PUT /products/{id} refuses %s = %s and leaves the product as it was',
    async (field, url, fields) => {
      const product = await create({
        productCode: `PUT-${field}-${UNSAFE_URLS.indexOf(url)}`,
        name: 'Linked',
        imageUrl: 'https://cdn.example.com/a.jpg',
      });
      const reply = await write('PUT', `/products/${product.id}`, {
        productCode: product.productCode,
        name: 'Linked',
        ...fields,
      });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: { field, reason },
      });
      expect(await adminRecord(product.id)).toEqual(product);
    },
  );

  it('accepts https: and http: URLs with a host and serves them to integrators', async () => {
    const product = await create({
      productCode: 'URL-OK',
      name: 'Linked',
      imageUrl: 'https://cdn.example.com/a.jpg',
      images: [{ url: 'http://cdn.example.com/b.jpg', name: 'Back' }],
      documents: [
        { url: 'HTTPS://CDN.EXAMPLE.COM:8443/manual.pdf', name: 'Port' },
        { url: 'https://[2001:db8::1]/manual.pdf', name: 'IPv6' },
        { url: 'https://cdn.example.com?file=manual.pdf', name: 'Query' },
        { url: 'https://cdn.example.com', name: 'Bare host' },
      ],
    });
    const read = await stack.call<Json>(`/products/${product.id}`, {
      token: reader,
      operation: 'getProduct',
    });
    expect(read.body).toMatchObject({
      imageUrl: 'https://cdn.example.com/a.jpg',
      images: [{ url: 'http://cdn.example.com/b.jpg', name: 'Back' }],
    });
  });
});

describe('a product read back is accepted by PUT, its derived fields ignored', () => {
  let part: Json & { id: string };
  let spare: Json & { id: string };
  let product: Json & { id: string };
  let internalBefore: Json;

  beforeAll(async () => {
    part = await create({ productCode: 'RT-PART', erpCode: 'ERP-PART', name: 'Round-trip part' });
    spare = await create({ productCode: 'RT-SPARE', name: 'Round-trip spare' });
    product = await create({
      productCode: 'RT-MAIN',
      name: 'Round-trip widget',
      imageUrl: 'https://cdn.example.com/rt.jpg',
      relatedProducts: [{ productId: part.id, relationType: 'required', qty: 2, note: 'two per unit' }],
      internalNote: 'Supplier lead time 2 weeks; do not quote below cost',
      costPrice: 42.33,
      marginPercent: 53,
      status: 'inactive',
      spares: [{ productId: spare.id, qty: 3 }],
    });
    internalBefore = internalFields(product);
    // The part gains a reverse ("used by") entry pointing at the product.
    await create({
      productCode: 'RT-KIT',
      name: 'Round-trip kit',
      relatedProducts: [{ productId: product.id, relationType: 'optional', qty: 1 }],
    });
  });

  it('POST /products/batch-get → PUT of the admin record with one field changed: only that field and updatedAt change, internal fields kept', async () => {
    const before = await adminRecord(product.id);
    expect(before).toMatchObject({ costPrice: 42.33, marginPercent: 53, status: 'inactive' });
    const reply = await write('PUT', `/products/${product.id}`, { ...before, colour: 'teal' });
    expect(reply.status, reply.text).toBe(200);
    const after = await adminRecord(product.id);
    expect({ ...after, updatedAt: before.updatedAt }).toEqual({ ...before, colour: 'teal' });
  });

  it('GET /products/{id} → PUT of that body with one field changed: the next GET differs in that field only', async () => {
    const first = await stack.call<Json>(`/products/${product.id}`, {
      token: admin,
      operation: 'getProduct',
    });
    const relations = first.body.relatedProducts as Json[];
    // The read carries the derived fields that used to make PUT fail.
    expect(relations.some((entry) => entry.source === 'reverse')).toBe(true);
    expect(relations.some((entry) => entry.productCode === 'RT-PART' && entry.erpCode === 'ERP-PART')).toBe(
      true,
    );

    const reply = await write('PUT', `/products/${product.id}`, { ...first.body, name: 'Renamed widget' });
    expect(reply.status, reply.text).toBe(200);

    const second = await stack.call<Json>(`/products/${product.id}`, {
      token: admin,
      operation: 'getProduct',
    });
    expect(second.body).toEqual({ ...first.body, name: 'Renamed widget' });
  });

  it('a PUT of the GET /products/{id} body keeps every internal field it lacks (internalNote, costPrice, marginPercent…) and the relation notes', async () => {
    const after = await adminRecord(product.id);
    expect(internalFields(after)).toEqual(internalBefore);
    expect(after.relatedProducts).toEqual([
      { productId: part.id, relationType: 'required', qty: 2, note: 'two per unit' },
    ]);
  });

  it('ignores a reverse entry sent by hand: only the derived one is stored', async () => {
    const record = await adminRecord(part.id);
    const forged = { productId: spare.id, relationType: 'substitute', qty: 1, source: 'reverse' };
    const reply = await write('PUT', `/products/${part.id}`, {
      ...record,
      relatedProducts: [...(record.relatedProducts as Json[]), forged],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.relatedProducts).toEqual(record.relatedProducts);
    const stored = await stack.store.products.get(part.id);
    expect(stored?.relatedProducts.map((entry) => entry.productId)).toEqual([product.id]);
  });
});

/** The internal fields of an admin record, which GET /products/{id} does not show. */
function internalFields(record: Json): Json {
  const { status, archived, internalNote, spares, costPrice, marginPercent, webVisibility } = record;
  return { status, archived, internalNote, spares, costPrice, marginPercent, webVisibility };
}
