// Spec part 2.1–2.3 (and 5 rule 11): what an M2M caller sees of products and brands, over the wire.
// The demo catalogue of `pnpm start` gives the variety; products written through the admin routes give
// the cases a rule names (relations with notes, spares, an internal note, cost and margin, channel
// visibility).
import { PRODUCT_FIELDS, type Product, type ProductSearchResponse } from '@catalog/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import {
  type AdminProductBody,
  archiveProduct,
  createProduct,
  replaceProduct,
  searchAllPages,
  uniqueCode,
} from './support/catalogue.ts';
import { type Call, contractCall } from './support/contract.ts';
import { adminToken, createM2MClient, type M2MCaller, m2mCaller } from './support/people.ts';

const ALLOWED = new Set<string>(PRODUCT_FIELDS);
const RELATION_KEYS = new Set(['productId', 'productCode', 'erpCode', 'relationType', 'qty', 'source']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTERNAL_NOTE = 'STAFF-ONLY supplier is late, never quote below cost';
const RELATION_NOTE = 'STAFF-ONLY relation note';

let stack: E2EStack;
let call: Call;
let admin: string;
let reader: M2MCaller; // products.read + brands.read, unbound
let everyScope: M2MCaller; // all four scopes, .write included
let bound: M2MCaller; // bound to the main-site channel
let demo: Product[]; // the first 300 demo products, as search returns them
let target: Product & { erpCode: string };
let spareTarget: { id: string };
let source: { id: string };
let archivedRelation: { id: string };
let beforeFixtures: string;

const get = async (token: string, id: string) => {
  const reply = await call(`/products/${id}`, { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as Product;
};

const searchOne = async (token: string, productCode: string) => {
  const reply = await call(`/products/search?q=${encodeURIComponent(productCode)}&size=5`, { token });
  expect(reply.status, reply.text).toBe(200);
  const hit = (reply.body as ProductSearchResponse).data.find(
    (product) => product.productCode === productCode,
  );
  expect(hit, `${productCode} among the hits`).toBeDefined();
  return hit as Product;
};

beforeAll(async () => {
  stack = await startE2EStack();
  call = contractCall(stack);
  admin = await adminToken(stack);
  [reader, everyScope] = await Promise.all([
    m2mCaller(stack, ['products.read', 'brands.read']),
    m2mCaller(stack, ['products.read', 'products.write', 'brands.read', 'brands.write']),
  ]);
  const boundClient = await createM2MClient(stack, ['products.read']);
  const rebind = await call(`/oauth/clients/${boundClient.clientId}`, {
    method: 'PUT',
    token: admin,
    body: { channel: 'main-site' },
  });
  expect(rebind.status, rebind.text).toBe(200);
  bound = { ...boundClient, token: await stack.accessToken(boundClient, ['products.read']) };

  demo = (await searchAllPages(call, reader.token, { size: 100, updatedAfter: '1970-01-01T00:00:00Z' }, 3))
    .products;

  beforeFixtures = new Date().toISOString();
  const base: Partial<AdminProductBody> = { brandName: 'Conformance Brand', brandSlug: 'conformance-brand' };
  const created = await createProduct(call, admin, {
    ...base,
    productCode: uniqueCode('TGT'),
    erpCode: `ERP-${uniqueCode('T')}`,
    name: 'Conformance relation target',
    imageUrl: 'https://cdn.example.com/target.jpg',
  });
  target = (await get(reader.token, created.id)) as Product & { erpCode: string };
  spareTarget = await createProduct(call, admin, {
    ...base,
    productCode: uniqueCode('SPR'),
    name: 'Spare part',
  });
  archivedRelation = await createProduct(call, admin, {
    ...base,
    productCode: uniqueCode('ARC'),
    name: 'Archived relation target',
  });
  await archiveProduct(call, admin, archivedRelation.id);
  source = await createProduct(call, admin, {
    ...base,
    productCode: uniqueCode('SRC'),
    erpCode: `ERP-${uniqueCode('S')}`,
    name: 'Conformance relation source',
    notes: 'Public short description',
    internalNote: INTERNAL_NOTE,
    costPrice: 11.11,
    marginPercent: 42,
    supplierCost: 12.34,
    price: 20.5,
    retailPrice: null,
    status: 'active',
    webHierarchy: 'Tools;Power tools;Drills',
    relatedProducts: [
      { productId: target.id, relationType: 'required', qty: 2, note: RELATION_NOTE },
      { productId: archivedRelation.id, relationType: 'substitute', qty: 1 },
    ],
    spares: [{ productId: spareTarget.id, qty: 3 }],
  });
});
afterAll(() => stack?.stop());

const fieldChecks: Record<string, (value: unknown) => boolean> = {
  id: (value) => typeof value === 'string' && UUID.test(value),
  length: (value) => typeof value === 'number',
  height: (value) => typeof value === 'number',
  width: (value) => typeof value === 'number',
  weight: (value) => typeof value === 'number',
  price: (value) => value === null || typeof value === 'number',
  retailPrice: (value) => value === null || typeof value === 'number',
  supplierCost: (value) => value === null || typeof value === 'number',
  imageUrl: (value) => value === null || typeof value === 'string',
  createdAt: (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value)) && /T/.test(value),
  images: (value) => Array.isArray(value),
  documents: (value) => Array.isArray(value),
  relatedProducts: (value) => Array.isArray(value),
};
const isString = (value: unknown) => typeof value === 'string';

/** One test per row of the 2.1 field table: on every record, present and of the spec's type. */
const fieldRows: [ruleKey: string, fields: string[]][] = [
  ['id', ['id']],
  ['productCode', ['productCode']],
  ['name', ['name']],
  ['description', ['description']],
  ['brandName', ['brandName']],
  ['brandSlug', ['brandSlug']],
  ['range', ['range']],
  ['category', ['category']],
  ['department', ['department']],
  ['subDepartment', ['subDepartment']],
  ['stockType', ['stockType']],
  ['catalogue', ['catalogue']],
  ['notes', ['notes']],
  ['colour', ['colour']],
  ['price', ['price']],
  ['retailPrice', ['retailPrice']],
  ['supplierCost', ['supplierCost']],
  ['barcode', ['barcode']],
  ['length/height/width/weight', ['length', 'height', 'width', 'weight']],
  ['weightUnit', ['weightUnit']],
  ['createdAt', ['createdAt']],
  ['imageUrl', ['imageUrl']],
  ['erpCode', ['erpCode']],
  ['altSupplierCode', ['altSupplierCode']],
  ['altSupplierCode2', ['altSupplierCode2']],
  ['webHierarchy', ['webHierarchy']],
  ['type/subType/subSubType', ['type', 'subType', 'subSubType']],
  ['retailRange', ['retailRange']],
  ['relatedProducts', ['relatedProducts']],
];

describe('2.1 Product: every field of the table, as GET /products/search and GET /products/{productId} return it', () => {
  for (const [key, fields] of fieldRows) {
    it(`[2.1 ${key}] ${fields.join(', ')} present on every full record with the spec's type`, async () => {
      const fetched = await Promise.all(demo.slice(0, 10).map((product) => get(reader.token, product.id)));
      for (const product of [...demo, ...fetched]) {
        for (const field of fields) {
          const value = (product as Record<string, unknown>)[field];
          expect(field in product, `${field} on ${product.id}`).toBe(true);
          expect((fieldChecks[field] ?? isString)(value), `${field} = ${JSON.stringify(value)}`).toBe(true);
        }
      }
    });
  }

  it('[2.1 id] id is the immutable upsert key: a replaced product keeps it, search and GET agree', async () => {
    const code = uniqueCode('IMM');
    const created = await createProduct(call, admin, { productCode: code, name: 'Before' });
    const replaced = await replaceProduct(call, admin, created.id, { productCode: code, name: 'After' });
    expect(replaced.id).toBe(created.id);
    const hit = await searchOne(reader.token, code);
    expect(hit.id).toBe(created.id);
    expect(hit.name).toBe('After');
    expect((await get(reader.token, created.id)).id).toBe(created.id);
  });

  it('[2.1 price][2.1 retailPrice][2.1 supplierCost] prices round-trip; null stays null; supplierCost is returned', async () => {
    const product = await get(reader.token, source.id);
    expect(product.price).toBe(20.5);
    expect(product.retailPrice).toBeNull();
    expect(product.supplierCost).toBe(12.34);
    expect(demo.some((entry) => entry.supplierCost === null)).toBe(true);
    expect(demo.some((entry) => typeof entry.supplierCost === 'number')).toBe(true);
  });

  it('[2.1 webHierarchy] webHierarchy is a navigation path whose segments are separated by semicolons', async () => {
    expect((await get(reader.token, source.id)).webHierarchy).toBe('Tools;Power tools;Drills');
    for (const product of demo) expect(product.webHierarchy?.split(';').length).toBeGreaterThan(1);
  });

  it('[2.1 erpCode] the q search matches erpCode for identifier lookups (exact match first)', async () => {
    const reply = await call(`/products/search?q=${encodeURIComponent(target.erpCode)}`, {
      token: reader.token,
    });
    expect(reply.status).toBe(200);
    expect((reply.body as ProductSearchResponse).data[0]?.id).toBe(target.id);
  });

  it('[2.1 notes][2.1 internal note] notes is the public short description; the internal note is never returned', async () => {
    const product = await get(reader.token, source.id);
    expect(product.notes).toBe('Public short description');
    const everywhere = await Promise.all([
      call(`/products/${source.id}`, { token: everyScope.token }),
      call(`/products/search?q=${encodeURIComponent('Conformance relation source')}`, {
        token: everyScope.token,
      }),
      call('/products/search?size=100&sort=createdAt&order=desc&includeArchived=true', {
        token: everyScope.token,
      }),
      call(`/products/${source.id}`, { token: admin }),
    ]);
    for (const reply of everywhere) {
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain('STAFF-ONLY');
      expect(reply.text).not.toMatch(/internalNote|internal_note/i);
    }
  });

  it('[2.1 images][2.1 documents] images and documents are arrays of exactly {url (URI), name}', async () => {
    let seen = 0;
    for (const product of demo) {
      for (const link of [...(product.images ?? []), ...(product.documents ?? [])]) {
        seen += 1;
        expect(Object.keys(link).sort()).toEqual(['name', 'url']);
        expect(() => new URL(link.url)).not.toThrow();
        expect(typeof link.name).toBe('string');
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('[2.1 imageUrl] imageUrl is a string or null (null when the product has none)', () => {
    expect(demo.some((product) => product.imageUrl === null)).toBe(true);
    expect(demo.some((product) => typeof product.imageUrl === 'string')).toBe(true);
  });

  it('[2.1 range][2.1 retailRange] range is frequently empty and distinct from retailRange', () => {
    expect(demo.some((product) => product.range === '')).toBe(true);
    expect(demo.some((product) => product.range !== product.retailRange)).toBe(true);
  });
});

describe('2.1 displayOnWeb', () => {
  it('[2.1 displayOnWeb] an unbound client gets the stored flag, omitted when none is configured; a bound client always an explicit value for its channel', async () => {
    const code = (suffix: string) => uniqueCode(`DOW${suffix}`);
    const [shown, hidden, unset, channelHidden, channelShown] = await Promise.all([
      createProduct(call, admin, { productCode: code('A'), name: 'Shown', displayOnWeb: true }),
      createProduct(call, admin, { productCode: code('B'), name: 'Hidden', displayOnWeb: false }),
      createProduct(call, admin, { productCode: code('C'), name: 'Unset' }),
      createProduct(call, admin, {
        productCode: code('D'),
        name: 'Hidden on main-site',
        displayOnWeb: true,
        webVisibility: { 'main-site': false },
      }),
      createProduct(call, admin, {
        productCode: code('E'),
        name: 'Shown on main-site',
        displayOnWeb: false,
        webVisibility: { 'main-site': true, outlet: false },
      }),
    ]);
    const unbound = await Promise.all(
      [shown, hidden, unset, channelHidden, channelShown].map((product) => get(reader.token, product.id)),
    );
    expect(unbound.map((product) => product.displayOnWeb)).toEqual([true, false, undefined, true, false]);
    expect('displayOnWeb' in (unbound[2] as Product) ? unbound[2]?.displayOnWeb : false).toBe(false);
    const forChannel = await Promise.all(
      [shown, hidden, unset, channelHidden, channelShown].map((product) => get(bound.token, product.id)),
    );
    for (const product of forChannel) expect(typeof product.displayOnWeb).toBe('boolean');
    expect(forChannel.map((product) => product.displayOnWeb)).toEqual([true, false, false, false, true]);
    // The same values in search hits for the bound client.
    const hit = await searchOne(bound.token, channelShown.productCode);
    expect(hit.displayOnWeb).toBe(true);
    const boundPage = await call('/products/search?size=100', { token: bound.token });
    for (const product of (boundPage.body as ProductSearchResponse).data)
      expect(typeof product.displayOnWeb).toBe('boolean');
  });
});

describe('2.1 relatedProducts', () => {
  it('[2.1 relatedProducts.productId][2.1 relatedProducts.relationType][2.1 relatedProducts.qty] entries carry the related id, a relation type and a quantity', async () => {
    const product = await get(reader.token, source.id);
    const entry = product.relatedProducts?.find((relation) => relation.productId === target.id);
    expect(entry).toMatchObject({ productId: target.id, relationType: 'required', qty: 2 });
    for (const candidate of demo) {
      for (const relation of candidate.relatedProducts ?? []) {
        expect(relation.productId).toMatch(UUID);
        expect(['required', 'optional', 'substitute']).toContain(relation.relationType);
        expect(typeof relation.qty).toBe('number');
      }
    }
    expect(demo.some((candidate) => (candidate.relatedProducts ?? []).length > 0)).toBe(true);
  });

  it('[2.1 relatedProducts.productCode][2.1 relatedProducts.erpCode] inline productCode and erpCode only on GET /products/{productId}', async () => {
    const fetched = await get(reader.token, source.id);
    expect(fetched.relatedProducts?.find((relation) => relation.productId === target.id)).toMatchObject({
      productCode: target.productCode,
      erpCode: target.erpCode,
    });
    const hit = await searchOne(reader.token, fetched.productCode as string);
    expect(hit.relatedProducts?.length).toBeGreaterThan(0);
    for (const relation of hit.relatedProducts ?? []) {
      expect(relation).not.toHaveProperty('productCode');
      expect(relation).not.toHaveProperty('erpCode');
    }
    for (const product of demo)
      for (const relation of product.relatedProducts ?? []) {
        expect(relation).not.toHaveProperty('productCode');
        expect(relation).not.toHaveProperty('erpCode');
      }
  });

  it('[2.1 relatedProducts.source] source is "reverse" and only on server-derived reverse ("used by") entries', async () => {
    const reverse = (await get(reader.token, target.id)).relatedProducts?.find(
      (relation) => relation.productId === source.id,
    );
    expect(reverse).toMatchObject({ productId: source.id, source: 'reverse' });
    const forward = (await get(reader.token, source.id)).relatedProducts?.find(
      (relation) => relation.productId === target.id,
    );
    expect(forward).not.toHaveProperty('source');
    for (const product of demo)
      for (const relation of product.relatedProducts ?? [])
        if ('source' in relation) expect(relation.source).toBe('reverse');
  });

  it('[2.1 relation hidden fields] relation entries never carry note, name, imageUrl or archived', async () => {
    const replies = [
      await call(`/products/${source.id}`, { token: everyScope.token }),
      await call(`/products/${target.id}`, { token: everyScope.token }),
      await call(`/products/search?q=${encodeURIComponent('Conformance relation')}`, {
        token: everyScope.token,
      }),
    ];
    for (const reply of replies) {
      expect(reply.text).not.toContain(RELATION_NOTE);
      const products =
        'data' in (reply.body as object)
          ? (reply.body as ProductSearchResponse).data
          : [reply.body as Product];
      for (const product of products)
        for (const relation of product.relatedProducts ?? [])
          for (const key of Object.keys(relation)) expect(RELATION_KEYS.has(key), key).toBe(true);
    }
    const withArchived = (await get(everyScope.token, source.id)).relatedProducts ?? [];
    const entry = withArchived.find((relation) => relation.productId === archivedRelation.id);
    if (entry !== undefined) expect(entry).not.toHaveProperty('archived');
    for (const product of demo)
      for (const relation of product.relatedProducts ?? [])
        for (const key of ['note', 'name', 'imageUrl', 'archived']) expect(relation).not.toHaveProperty(key);
  });

  it('[2.1 spares] the spares array is never exposed, not even as relations', async () => {
    const product = await get(everyScope.token, source.id);
    expect(product).not.toHaveProperty('spares');
    expect(product.relatedProducts?.map((relation) => relation.productId)).not.toContain(spareTarget.id);
    const spare = await get(everyScope.token, spareTarget.id);
    expect(spare.relatedProducts?.map((relation) => relation.productId)).not.toContain(source.id);
    const page = await call('/products/search?size=100&includeArchived=true', { token: everyScope.token });
    expect(page.text).not.toMatch(/"spares"/);
  });
});

describe('2.1 the allowlist', () => {
  it('[2.1 allowlist][5 rule 11] no field outside the allowlist, whatever the scopes (internal status, cost, margin absent)', async () => {
    const callers = [reader.token, everyScope.token, bound.token, admin];
    for (const token of callers) {
      const [page, one, archived] = await Promise.all([
        call('/products/search?size=100&includeArchived=true', { token }),
        call(`/products/${source.id}`, { token }),
        call(`/products/${archivedRelation.id}`, { token }),
      ]);
      const products = [
        ...(page.body as ProductSearchResponse).data,
        one.body as Product,
        archived.body as Product,
      ];
      for (const product of products)
        for (const key of Object.keys(product))
          expect(ALLOWED.has(key), `${key} on ${product.id}`).toBe(true);
      for (const reply of [page, one, archived])
        expect(reply.text).not.toMatch(
          /"(status|costPrice|marginPercent|archived|internalNote|spares|updatedAt)"/,
        );
    }
  });

  it('[5 rule 11] the full record is the same for a products.read token and a token holding every scope', async () => {
    const [narrow, wide] = await Promise.all([
      get(reader.token, source.id),
      get(everyScope.token, source.id),
    ]);
    expect(wide).toEqual(narrow);
  });

  it('[2.1 updatedAt] updatedAt is not in the body; it is usable as a sort column and through updatedAfter', async () => {
    const sorted = await call('/products/search?sort=updatedAt&order=desc&size=5', { token: reader.token });
    expect(sorted.status).toBe(200);
    const filtered = await call(
      `/products/search?updatedAfter=${encodeURIComponent(beforeFixtures)}&size=100`,
      { token: reader.token },
    );
    expect(filtered.status).toBe(200);
    expect((filtered.body as ProductSearchResponse).data.map((product) => product.id)).toContain(source.id);
    for (const reply of [sorted, filtered]) expect(reply.text).not.toContain('updatedAt');
    expect(JSON.stringify(await get(reader.token, source.id))).not.toContain('updatedAt');
  });
});

describe('2.2 and 2.3', () => {
  it('[2.2 reduced product] GET /products returns exactly id, productCode, brandName, category, description, price, imageUrl, createdAt', async () => {
    const reply = await call('/products?limit=100', { token: everyScope.token });
    expect(reply.status).toBe(200);
    const { products } = reply.body as { products: Record<string, unknown>[] };
    expect(products.length).toBeGreaterThan(0);
    const expected = [
      'brandName',
      'category',
      'createdAt',
      'description',
      'id',
      'imageUrl',
      'price',
      'productCode',
    ];
    for (const product of products) {
      expect(Object.keys(product).sort()).toEqual(expected);
      expect(product.imageUrl === null || typeof product.imageUrl === 'string').toBe(true);
    }
    expect(reply.text).not.toContain('STAFF-ONLY');
  });

  it('[2.3 brand] a brand is exactly id, name, slug on GET /brands, /brands/search and /brands/{id}', async () => {
    const [list, searched] = await Promise.all([
      call('/brands?includeArchived=true', { token: everyScope.token }),
      call('/brands/search?size=100', { token: everyScope.token }),
    ]);
    const brands = [
      ...(list.body as Record<string, unknown>[]),
      ...(searched.body as { data: Record<string, unknown>[] }).data,
    ];
    const first = brands[0] as { id: string };
    const one = await call(`/brands/${encodeURIComponent(first.id)}`, { token: everyScope.token });
    expect(one.status).toBe(200);
    for (const brand of [...brands, one.body as Record<string, unknown>]) {
      expect(Object.keys(brand).sort()).toEqual(['id', 'name', 'slug']);
      for (const value of Object.values(brand)) expect(typeof value).toBe('string');
    }
  });
});
