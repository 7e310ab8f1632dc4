// Spec part 4.1: the catalog routes an M2M token calls, parameter by parameter and response field by
// response field, over the wire (the point here is the wire format). The catalogue is larger than
// `pnpm start`'s default so that the capped total (10000) and paging beyond it are real.
import type { Brand, BrandSearchResponse, Product, ProductSearchResponse } from '@catalog/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { openStoreConnection } from '../support/store-connection.ts';
import {
  archiveProduct,
  createBrand,
  createProduct,
  replaceProduct,
  search,
  searchAllPages,
  uniqueCode,
} from './support/catalogue.ts';
import { type Call, contractCall } from './support/contract.ts';
import { adminToken, createM2MClient, type M2MCaller, m2mCaller } from './support/people.ts';

const DEMO_PRODUCTS = 10_600;
/** The column IDs of spec 4.1, written out here so the check does not lean on the contract's copy. */
const SORT_COLUMNS = [
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
] as const;

let stack: E2EStack;
let call: Call;
let admin: string;
let reader: M2MCaller;
let productsOnly: M2MCaller;
let brandsOnly: M2MCaller;
let everyScope: M2MCaller;
let bound: M2MCaller;
let marker: { id: string; productCode: string; erpCode: string };
let brandFixture: { name: string; ids: string[] };
let archived: { id: string; productCode: string };
let inactive: { id: string; productCode: string };
let discontinued: { id: string; productCode: string };
let nonArchivedTotal: number;
/** A demo brand: filtering by it keeps a match set under the 10000 cap, so its totals are exact. */
let demoBrand: string;

/** A count read straight from the stack's database: the reference the API's answers are held to. */
const storedCount = async (where: string, ...params: string[]): Promise<number> => {
  const db = await openStoreConnection(stack.location, { readOnly: true });
  try {
    return Number((await db.all(`SELECT count(*) AS n FROM products WHERE ${where}`, ...params))[0]?.n);
  } finally {
    await db.close();
  }
};

/** SQLite's NOCASE: ASCII letters folded, everything else by code point. */
const nocase = (value: string) => value.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
const compare = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [nocase(String(a)), nocase(String(b))];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The record field each sort column orders by (spec 4.1: code by productCode, brand by brandName). */
const SORT_FIELD: Record<(typeof SORT_COLUMNS)[number], keyof Product> = {
  name: 'name',
  code: 'productCode',
  brand: 'brandName',
  price: 'price',
  category: 'category',
  department: 'department',
  subDepartment: 'subDepartment',
  supplierCost: 'supplierCost',
  createdAt: 'createdAt',
  updatedAt: 'id', // not in the body: its order is checked against the order of the writes
};
/** A missing value (null, absent, empty) sorts below every other one: first ascending, last descending. */
const missing = (value: unknown) => value === null || value === undefined || value === '';
const sortCompare = (a: unknown, b: unknown): number =>
  missing(a) || missing(b) ? Number(!missing(a)) - Number(!missing(b)) : compare(a, b);

const q = (query: Record<string, string | number | boolean>) =>
  new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: DEMO_PRODUCTS });
  call = contractCall(stack);
  admin = await adminToken(stack);
  [reader, productsOnly, brandsOnly, everyScope] = await Promise.all([
    m2mCaller(stack, ['products.read', 'brands.read']),
    m2mCaller(stack, ['products.read']),
    m2mCaller(stack, ['brands.read']),
    m2mCaller(stack, ['products.read', 'products.write', 'brands.read', 'brands.write']),
  ]);
  const boundClient = await createM2MClient(stack, ['products.read']);
  await call(`/oauth/clients/${boundClient.clientId}`, {
    method: 'PUT',
    token: admin,
    body: { channel: 'trade-portal' },
  });
  bound = { ...boundClient, token: await stack.accessToken(boundClient, ['products.read']) };

  const code = uniqueCode('ZQXCODE');
  const created = await createProduct(call, admin, {
    productCode: code,
    erpCode: `ZQXERP-${code}`,
    name: 'Zqxnameword marker product',
    description: 'A zqxdescword marker description',
  });
  marker = { id: created.id, productCode: code, erpCode: `ZQXERP-${code}` };
  const brandName = `Exact Brand ${uniqueCode('B')}`;
  await createBrand(call, admin, { name: brandName });
  const branded = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      createProduct(call, admin, { productCode: uniqueCode(`EB${n}`), name: `Branded ${n}`, brandName }),
    ),
  );
  brandFixture = { name: brandName, ids: branded.map((product) => product.id) };
  const [a, i, d] = await Promise.all([
    createProduct(call, admin, { productCode: uniqueCode('ARCH'), name: 'Archived active product' }),
    createProduct(call, admin, {
      productCode: uniqueCode('INAC'),
      name: 'Inactive product',
      status: 'inactive',
    }),
    createProduct(call, admin, {
      productCode: uniqueCode('DISC'),
      name: 'Discontinued product',
      status: 'discontinued',
    }),
  ]);
  await archiveProduct(call, admin, a.id);
  [archived, inactive, discontinued] = [a, i, d];
  const all = await search(call, reader.token, { updatedAfter: '1970-01-01T00:00:00Z', size: 1 });
  nonArchivedTotal = all.body.pagination.total;
  demoBrand = all.body.data[0]?.brandName as string;
});
afterAll(() => stack?.stop());

describe('4.1 GET /products/search: query parameters', () => {
  it('[4.1 /products/search q][8 q length][7.3 SEARCH_TERM_TOO_LONG] q of 256 characters is accepted; 257 is 400 SEARCH_TERM_TOO_LONG', async () => {
    const ok = await search(call, reader.token, { q: 'a'.repeat(256) });
    expect(ok.status).toBe(200);
    const long = await call(`/products/search?q=${'a'.repeat(257)}`, { token: reader.token });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ error: 'SEARCH_TERM_TOO_LONG' });
  });

  it('[4.1 /products/search q] q matches name, description, productCode and erpCode; no q matches every non-archived product (paged beyond the cap)', async () => {
    for (const term of ['Zqxnameword', 'zqxdescword', marker.productCode, marker.erpCode]) {
      const page = await search(call, reader.token, { q: term });
      expect(
        page.body.data.map((product) => product.id),
        term,
      ).toContain(marker.id);
    }
    const none = await search(call, reader.token, { q: 'zqxnothingmatchesthis' });
    expect(none.body.data).toEqual([]);
    const { products } = await searchAllPages(call, reader.token, { size: 100 });
    const ids = new Set(products.map((product) => product.id));
    expect(ids.size).toBeGreaterThan(10_000);
    expect(ids.size).toBe(await storedCount('NOT archived'));
  });

  it('[4.1 /products/search q][2.1 internal note] q matches only those four fields: a word found only in the internal note, notes, brand, colour, barcode or a relation note finds nothing', async () => {
    const hidden = await createProduct(call, admin, {
      productCode: uniqueCode('QSCOPE'),
      name: 'Plain scoped product',
      description: 'Nothing special here',
      internalNote: 'Qzvinternalword staff note',
      notes: 'Qzvnotesword public note',
      colour: 'Qzvcolourword',
      barcode: '9999888877776',
      altSupplierCode: 'QZVALTCODE',
      relatedProducts: [{ productId: marker.id, relationType: 'optional', qty: 1, note: 'Qzvrelationword' }],
    });
    for (const term of [
      'Qzvinternalword',
      'Qzvnotesword',
      'Qzvcolourword',
      '9999888877776',
      'QZVALTCODE',
      'Qzvrelationword',
    ]) {
      const page = await search(call, reader.token, { q: term, includeArchived: true });
      expect(
        page.body.data.map((product) => product.id),
        term,
      ).not.toContain(hidden.id);
    }
    // An empty q is no q: under a filter that keeps the match set below the cap, the exact total is
    // every non-archived product of the brand.
    const [empty, none] = await Promise.all([
      search(call, reader.token, { q: '', brandName: demoBrand, size: 1 }),
      search(call, reader.token, { brandName: demoBrand, size: 1 }),
    ]);
    expect(empty.status).toBe(200);
    expect(empty.body.pagination).toMatchObject({
      total: none.body.pagination.total,
      totalIsLowerBound: false,
    });
    expect(empty.body.pagination.total).toBe(
      await storedCount('NOT archived AND brand_name = $1', demoBrand),
    );
    expect(empty.body.pagination.total).toBeGreaterThan(1);
  });

  it('[4.1 /products/search size][8 size] size defaults to 20 and is at most 100 (101 is a 400)', async () => {
    const defaults = await search(call, reader.token, {});
    expect(defaults.body.data).toHaveLength(20);
    expect(defaults.body.pagination.size).toBe(20);
    const max = await search(call, reader.token, { size: 100 });
    expect(max.body.data).toHaveLength(100);
    const over = await call('/products/search?size=101', { token: reader.token });
    expect(over.status).toBe(400);
  });

  it('[4.1 /products/search from][8 from] from is the offset, default 0', async () => {
    const [whole, first, second] = await Promise.all([
      search(call, reader.token, { sort: 'code', order: 'asc', size: 40 }),
      search(call, reader.token, { sort: 'code', order: 'asc', size: 20 }),
      search(call, reader.token, { sort: 'code', order: 'asc', size: 20, from: 20 }),
    ]);
    const ids = (page: { body: ProductSearchResponse }) => page.body.data.map((product) => product.id);
    expect(first.body.pagination.from).toBe(0);
    expect(ids(first)).toEqual(ids(whole).slice(0, 20));
    expect(ids(second)).toEqual(ids(whole).slice(20, 40));
    expect(second.body.pagination.from).toBe(20);
  });

  it('[4.1 /products/search syncToken][8 Reported total] the URL-encoded syncToken pages through the whole non-archived catalogue, beyond 10000', async () => {
    const { pages, products } = await searchAllPages(call, reader.token, {
      updatedAfter: '1970-01-01T00:00:00Z',
      size: 100,
    });
    const ids = new Set(products.map((product) => product.id));
    expect(nonArchivedTotal).toBe(10_000);
    expect(ids.size).toBeGreaterThan(10_000);
    expect(ids.size).toBe(products.length);
    expect(ids.size).toBe(await storedCount('NOT archived'));
    expect(ids.has(marker.id)).toBe(true);
    expect(ids.has(archived.id)).toBe(false);
    expect(pages.at(-1)?.syncToken).toBeNull();
  });

  it('[4.1 /products/search brandName] brandName is an exact brand name filter', async () => {
    const exact = await search(call, reader.token, { brandName: brandFixture.name, size: 100 });
    expect(exact.body.data.map((product) => product.id).sort()).toEqual([...brandFixture.ids].sort());
    for (const product of exact.body.data) expect(product.brandName).toBe(brandFixture.name);
    const prefix = await search(call, reader.token, { brandName: brandFixture.name.slice(0, -2) });
    expect(prefix.body.data).toEqual([]);
    const demoBrand = (await search(call, reader.token, { size: 1 })).body.data[0]?.brandName as string;
    const demoPage = await search(call, reader.token, { brandName: demoBrand, size: 100 });
    expect(demoPage.body.data.length).toBeGreaterThan(0);
    for (const product of demoPage.body.data) expect(product.brandName).toBe(demoBrand);
  });

  it('[4.1 /products/search updatedAfter] updatedAfter filters by last change; the epoch asks for the whole non-archived catalogue', async () => {
    const [epoch, none, archivedToo] = await Promise.all([
      search(call, reader.token, { updatedAfter: '1970-01-01T00:00:00Z', size: 1 }),
      search(call, reader.token, { size: 1 }),
      search(call, reader.token, { updatedAfter: '1970-01-01T00:00:00Z', includeArchived: true, size: 1 }),
    ]);
    expect(epoch.body.pagination.total).toBe(none.body.pagination.total);
    expect(archivedToo.body.pagination.total).toBeGreaterThanOrEqual(epoch.body.pagination.total);
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fresh = await createProduct(call, admin, { productCode: uniqueCode('UPD'), name: 'Updated later' });
    const after = await search(call, reader.token, { updatedAfter: before, size: 100 });
    expect(after.body.data.map((product) => product.id)).toEqual([fresh.id]);
    const offset = await search(call, reader.token, {
      updatedAfter: new Date(Date.parse(before)).toISOString().replace('Z', '+00:00'),
      size: 100,
    });
    expect(offset.body.data.map((product) => product.id)).toEqual([fresh.id]);
    const bad = await call('/products/search?updatedAfter=yesterday', { token: reader.token });
    expect(bad.status).toBe(400);
  });

  it('[4.1 /products/search includeArchived] archived products are excluded by default; includeArchived=true includes them', async () => {
    const [byDefault, excluded, included] = await Promise.all([
      search(call, reader.token, { q: archived.productCode }),
      search(call, reader.token, { q: archived.productCode, includeArchived: false }),
      search(call, reader.token, { q: archived.productCode, includeArchived: true }),
    ]);
    expect(byDefault.body.data.map((product) => product.id)).not.toContain(archived.id);
    expect(excluded.body.data.map((product) => product.id)).not.toContain(archived.id);
    expect(included.body.data.map((product) => product.id)).toContain(archived.id);
    const bad = await call('/products/search?includeArchived=yes', { token: reader.token });
    expect(bad.status).toBe(400);
  });

  it('[4.1 /products/search sort][7.3 INVALID_SORT_FIELD] every column ID sorts (code by productCode, brand by brandName); any other is 400 INVALID_SORT_FIELD listing them', async () => {
    for (const column of SORT_COLUMNS) {
      for (const order of ['asc', 'desc'] as const) {
        const page = await search(call, reader.token, { sort: column, order, size: 100 });
        expect(page.status, column).toBe(200);
        expect(page.body.data, column).toHaveLength(100);
        if (column === 'updatedAt') continue;
        const values = page.body.data.map((product) => product[SORT_FIELD[column]]);
        for (let index = 1; index < values.length; index += 1)
          expect(
            sortCompare(values[index - 1], values[index]) * (order === 'asc' ? 1 : -1),
            `${column} ${order}: ${values[index - 1]} before ${values[index]}`,
          ).toBeLessThanOrEqual(0);
      }
    }
    const latest = await search(call, reader.token, {
      sort: 'updatedAt',
      order: 'desc',
      size: 1,
      includeArchived: true,
    });
    const fresh = await createProduct(call, admin, { productCode: uniqueCode('SRT'), name: 'Latest change' });
    const after = await search(call, reader.token, { sort: 'updatedAt', order: 'desc', size: 1 });
    expect(after.body.data[0]?.id).toBe(fresh.id);
    expect(latest.status).toBe(200);
    for (const wrong of ['productCode', 'brandName', 'random', 'NAME', '', 'name,price']) {
      const reply = await call(`/products/search?sort=${wrong}`, { token: reader.token });
      expect(reply.status, wrong).toBe(400);
      expect(reply.body).toMatchObject({ error: 'INVALID_SORT_FIELD' });
      const message = (reply.body as { message: string }).message;
      for (const column of SORT_COLUMNS) expect(message).toContain(column);
    }
  });

  it('[4.1 /products/search sort][4.1 /products/search order] over a known set, every column orders ascending and exactly the reverse descending; a missing value (no price, supplier cost, brand, category, department or sub-department) comes first ascending and last descending', async () => {
    const word = `Zqsort${Date.now().toString(36)}`;
    const brands = await Promise.all(
      ['Sortbrand c', 'Sortbrand A', 'Sortbrand d', 'Sortbrand B'].map((name) =>
        createBrand(call, admin, { name: `${name} ${word}` }),
      ),
    );
    const base = uniqueCode('SORT');
    // Five products, one permutation per column, one product without each optional value.
    const rows = [
      {
        name: 'delta',
        code: 'C',
        brand: 0,
        price: 30,
        category: 'cat b',
        department: null,
        sub: 'sub e',
        cost: 7,
      },
      {
        name: 'Alpha',
        code: 'e',
        brand: 1,
        price: null,
        category: 'Cat a',
        department: 'dep c',
        sub: 'Sub b',
        cost: 3,
      },
      {
        name: 'echo',
        code: 'A',
        brand: null,
        price: 10.5,
        category: null,
        department: 'Dep a',
        sub: 'sub d',
        cost: 9,
      },
      {
        name: 'bravo',
        code: 'd',
        brand: 2,
        price: 20,
        category: 'cat d',
        department: 'dep e',
        sub: null,
        cost: null,
      },
      {
        name: 'Charlie',
        code: 'B',
        brand: 3,
        price: 5,
        category: 'cat c',
        department: 'dep b',
        sub: 'Sub a',
        cost: 1,
      },
    ];
    const bodies = rows.map((row) => ({
      productCode: `${base}-${row.code}`,
      name: `${word} ${row.name}`,
      ...(row.brand === null ? {} : { brandName: brands[row.brand]?.name ?? '' }),
      price: row.price,
      supplierCost: row.cost,
      ...(row.category === null ? {} : { category: row.category }),
      ...(row.department === null ? {} : { department: row.department }),
      ...(row.sub === null ? {} : { subDepartment: row.sub }),
    }));
    const created: { id: string }[] = [];
    for (const body of bodies) created.push(await createProduct(call, admin, body));
    // Changed later, in this order: the updatedAt order is 0, 2, 4, 3, 1.
    for (const index of [3, 1])
      await replaceProduct(call, admin, created[index]?.id as string, {
        ...(bodies[index] as (typeof bodies)[number]),
        description: 'changed later',
      });
    const sent: Record<(typeof SORT_COLUMNS)[number], unknown[]> = {
      name: bodies.map((body) => body.name),
      code: bodies.map((body) => body.productCode),
      brand: bodies.map((body) => body.brandName),
      price: bodies.map((body) => body.price),
      category: bodies.map((body) => body.category),
      department: bodies.map((body) => body.department),
      subDepartment: bodies.map((body) => body.subDepartment),
      supplierCost: bodies.map((body) => body.supplierCost),
      createdAt: [0, 1, 2, 3, 4],
      updatedAt: [0, 4, 1, 3, 2],
    };
    for (const column of SORT_COLUMNS) {
      const values = sent[column];
      const expected = [0, 1, 2, 3, 4]
        .sort((a, b) => sortCompare(values[a], values[b]))
        .map((index) => created[index]?.id);
      const [asc, desc] = await Promise.all([
        search(call, reader.token, { q: word, sort: column, order: 'asc' }),
        search(call, reader.token, { q: word, sort: column, order: 'desc' }),
      ]);
      expect(
        asc.body.data.map((product) => product.id),
        `${column} asc`,
      ).toEqual(expected);
      expect(
        desc.body.data.map((product) => product.id),
        `${column} desc`,
      ).toEqual([...expected].reverse());
    }
  });

  it('[4.1 /products/search order][7.3 INVALID_SORT] order defaults to desc with sort; asc and desc only; ignored without sort', async () => {
    const [implicit, desc, asc] = await Promise.all([
      search(call, reader.token, { sort: 'name', size: 30 }),
      search(call, reader.token, { sort: 'name', order: 'desc', size: 30 }),
      search(call, reader.token, { sort: 'name', order: 'asc', size: 30 }),
    ]);
    const names = (page: { body: ProductSearchResponse }) => page.body.data.map((product) => product.name);
    expect(names(implicit)).toEqual(names(desc));
    expect(names(desc)).toHaveLength(30);
    for (let index = 1; index < 30; index += 1) {
      expect(compare(names(desc)[index - 1], names(desc)[index])).toBeGreaterThanOrEqual(0);
      expect(compare(names(asc)[index - 1], names(asc)[index])).toBeLessThanOrEqual(0);
    }
    expect(compare(names(asc)[0], names(desc)[0])).toBeLessThan(0);
    for (const wrong of ['up', 'ASC', 'descending', '']) {
      const reply = await call(`/products/search?sort=name&order=${wrong}`, { token: reader.token });
      expect(reply.status, `order=${wrong}`).toBe(400);
      expect(reply.body).toMatchObject({ error: 'INVALID_SORT' });
    }
    const ignored = await call('/products/search?order=up', { token: reader.token });
    expect(ignored.status).toBe(200);
  });

  it('[4.1 /products/search fields] fields only narrows; a field outside the allowlist is silently omitted', async () => {
    const narrow = await search(call, reader.token, { fields: 'id,name,price', size: 10 });
    for (const product of narrow.body.data)
      expect(Object.keys(product).sort()).toEqual(['id', 'name', 'price']);
    const outside = await search(call, reader.token, {
      fields: 'name,costPrice,internalNote,status,updatedAt,spares',
      size: 10,
    });
    expect(outside.status).toBe(200);
    for (const product of outside.body.data) expect(Object.keys(product).sort()).toEqual(['id', 'name']);
  });

  it('[4.1 /products/search displayOnWeb] true = only web-visible, false = hidden including unset, omitted = all; per the calling client', async () => {
    for (const caller of [reader, bound]) {
      // One brand keeps every match set under the cap: the totals are exact and must add up.
      const [all, shown, hidden] = await Promise.all([
        search(call, caller.token, { brandName: demoBrand, size: 100 }),
        search(call, caller.token, { brandName: demoBrand, displayOnWeb: true, size: 100 }),
        search(call, caller.token, { brandName: demoBrand, displayOnWeb: false, size: 100 }),
      ]);
      for (const product of shown.body.data) expect(product.displayOnWeb).toBe(true);
      for (const product of hidden.body.data) expect(product.displayOnWeb ?? false).toBe(false);
      const [allTotal, shownTotal, hiddenTotal] = [all, shown, hidden].map((page) => page.body.pagination);
      for (const pagination of [allTotal, shownTotal, hiddenTotal])
        expect(pagination?.totalIsLowerBound).toBe(false);
      expect(shownTotal?.total).toBeGreaterThan(0);
      expect(hiddenTotal?.total).toBeGreaterThan(0);
      expect((shownTotal?.total ?? 0) + (hiddenTotal?.total ?? 0)).toBe(allTotal?.total);
    }
    const unset = await createProduct(call, admin, {
      productCode: uniqueCode('UNSET'),
      name: 'No visibility',
    });
    const hidden = await search(call, reader.token, { q: unset.productCode, displayOnWeb: false });
    expect(hidden.body.data.map((product) => product.id)).toContain(unset.id);
    const onChannel = await createProduct(call, admin, {
      productCode: uniqueCode('CHAN'),
      name: 'Visible on the trade portal only',
      displayOnWeb: false,
      webVisibility: { 'trade-portal': true },
    });
    const forBound = await search(call, bound.token, { q: onChannel.productCode, displayOnWeb: true });
    expect(forBound.body.data.map((product) => product.id)).toContain(onChannel.id);
    const forUnbound = await search(call, reader.token, { q: onChannel.productCode, displayOnWeb: true });
    expect(forUnbound.body.data.map((product) => product.id)).not.toContain(onChannel.id);
  });

  it('[4.1 /products/search includeAggregations] off by default; when asked, the response still conforms', async () => {
    const plain = await search(call, reader.token, { size: 5 });
    expect(plain.body).not.toHaveProperty('aggregations');
    const withFacets = await search(call, reader.token, { size: 5, includeAggregations: true });
    expect(withFacets.status).toBe(200);
    expect(withFacets.body).toHaveProperty('aggregations');
  });
});

describe('4.1 GET /products/search: the response', () => {
  it('[4.1 /products/search data][4.4 step 5] data is always present; an empty final page is []; each hit is the full allowed record', async () => {
    // A final page can only be empty when the rest of the match set went away between pages: the
    // service looks one row ahead, so a full last page already says hasMore false (see the notes).
    const brandName = `Vanishing Brand ${uniqueCode('VB')}`;
    await createBrand(call, admin, { name: brandName });
    const [kept, vanishing] = [
      await createProduct(call, admin, { productCode: uniqueCode('VB1'), name: 'Kept', brandName }),
      await createProduct(call, admin, { productCode: uniqueCode('VB2'), name: 'Vanishing', brandName }),
    ];
    const first = await search(call, reader.token, { brandName, size: 1, sort: 'createdAt', order: 'asc' });
    expect(first.body.data.map((product) => product.id)).toEqual([kept.id]);
    expect(first.body.pagination.hasMore).toBe(true);
    await archiveProduct(call, admin, vanishing.id);
    const last = await search(call, reader.token, {
      brandName,
      size: 1,
      sort: 'createdAt',
      order: 'asc',
      syncToken: first.body.syncToken as string,
    });
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
    expect(last.body.syncToken).toBeNull();
    expect(last.body.pagination.hasMore).toBe(false);
    const nothing = await search(call, reader.token, { q: 'zqxnothingmatchesthis' });
    expect(nothing.body).toMatchObject({ data: [], syncToken: null });
    const full = first.body.data[0] as Record<string, unknown>;
    for (const field of ['productCode', 'name', 'description', 'relatedProducts', 'images', 'createdAt'])
      expect(full).toHaveProperty(field);
  });

  it('[4.1 /products/search pagination.total][4.1 /products/search pagination.totalIsLowerBound][8 Reported total] total is capped at 10000 with totalIsLowerBound; otherwise exact', async () => {
    const capped = await search(call, reader.token, { includeArchived: true, size: 1 });
    expect(capped.body.pagination).toMatchObject({ total: 10_000, totalIsLowerBound: true });
    const exact = await search(call, reader.token, { brandName: brandFixture.name });
    expect(exact.body.pagination).toMatchObject({ total: brandFixture.ids.length, totalIsLowerBound: false });
  });

  it('[4.1 /products/search pagination.from][4.1 /products/search pagination.size] pagination echoes from and size', async () => {
    const page = await search(call, reader.token, { from: 7, size: 13 });
    expect(page.body.pagination).toMatchObject({ from: 7, size: 13 });
    expect(page.body.data).toHaveLength(13);
  });

  it('[4.1 /products/search pagination.hasMore][4.1 /products/search pagination.syncToken][4.1 /products/search syncToken response] hasMore true on a full page, false on the last; pagination.syncToken equals syncToken, null on the last page', async () => {
    const { pages } = await searchAllPages(call, reader.token, { brandName: brandFixture.name, size: 3 });
    expect(pages).toHaveLength(2);
    // A full page that is also the last: the service looked one row ahead (reading recorded in the notes).
    const exact = await search(call, reader.token, {
      brandName: brandFixture.name,
      size: brandFixture.ids.length,
    });
    expect(exact.body.data).toHaveLength(brandFixture.ids.length);
    expect(exact.body.pagination.hasMore).toBe(exact.body.syncToken !== null);
    const [full, last] = pages as [ProductSearchResponse, ProductSearchResponse];
    expect(full.pagination.hasMore).toBe(true);
    expect(typeof full.syncToken).toBe('string');
    expect(full.pagination.syncToken).toBe(full.syncToken);
    expect(last.data).toHaveLength(1);
    expect(last.pagination.hasMore).toBe(false);
    expect(last.syncToken).toBeNull();
    expect(last.pagination.syncToken).toBeNull();
  });

  it('[4.1 /products/search meta.queryTimeMs][4.1 /products/search meta.source] meta carries an integer queryTimeMs and a source', async () => {
    const page = await search(call, reader.token, { q: 'drill' });
    expect(Number.isInteger(page.body.meta.queryTimeMs)).toBe(true);
    expect(typeof page.body.meta.source).toBe('string');
  });

  it('[4.1 /products/search errors][7.3 INVALID_SYNC_TOKEN] 400 INVALID_SYNC_TOKEN for a malformed, tampered or foreign cursor; 401 without a token; 403 without the scope', async () => {
    const first = await search(call, reader.token, { size: 2 });
    const token = first.body.syncToken as string;
    const tampered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    for (const cursor of ['not-a-cursor', tampered, token]) {
      const query =
        cursor === token ? { size: 2, q: 'drill', syncToken: cursor } : { size: 2, syncToken: cursor };
      const reply = await call(`/products/search?${q(query)}`, { token: reader.token });
      expect(reply.status, cursor).toBe(400);
      expect(reply.body).toMatchObject({ error: 'INVALID_SYNC_TOKEN' });
    }
    expect((await call('/products/search')).status).toBe(401);
    expect((await call('/products/search', { token: brandsOnly.token })).status).toBe(403);
  });
});

describe('4.1 the other product routes', () => {
  it('[4.1 /products/{productId}][2.1 relatedProducts.productCode][2.1 relatedProducts.erpCode][7.3 NOT_FOUND] one fully enriched product (the search record, its relations with inline productCode and erpCode); an unknown id is 404 NOT_FOUND', async () => {
    const related = await createProduct(call, admin, {
      productCode: uniqueCode('ENRICH'),
      name: 'Enriched relations product',
      relatedProducts: [{ productId: marker.id, relationType: 'substitute', qty: 2 }],
    });
    const one = await call(`/products/${related.id}`, { token: reader.token });
    expect(one.status).toBe(200);
    const product = one.body as Product;
    expect(product.id).toBe(related.id);
    expect(product.relatedProducts).toEqual([
      {
        productId: marker.id,
        productCode: marker.productCode,
        erpCode: marker.erpCode,
        relationType: 'substitute',
        qty: 2,
      },
    ]);
    // Everything else is the record search returns (where relations carry no inline codes).
    const hit = (await search(call, reader.token, { q: related.productCode })).body.data.find(
      (entry) => entry.id === related.id,
    );
    expect(hit?.relatedProducts).toEqual([{ productId: marker.id, relationType: 'substitute', qty: 2 }]);
    expect({ ...product, relatedProducts: [] }).toEqual({ ...hit, relatedProducts: [] });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await call(`/products/${id}`, { token: reader.token });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ error: 'NOT_FOUND' });
    }
    expect((await call(`/products/${marker.id}`)).status).toBe(401);
    expect((await call(`/products/${marker.id}`, { token: brandsOnly.token })).status).toBe(403);
  });

  it('[4.1 /products][3 product status][4.1 /products lastKey][4.1 /products response] the deprecated list has only active products, archived ones included, paged by lastKey to null', async () => {
    const seen = new Set<string>();
    let lastKey: string | null = null;
    let pages = 0;
    do {
      const reply = await call(
        `/products?${q(lastKey === null ? { limit: 100 } : { limit: 100, lastKey })}`,
        {
          token: productsOnly.token,
        },
      );
      expect(reply.status).toBe(200);
      const body = reply.body as { products: { id: string }[]; lastKey: string | null };
      for (const product of body.products) seen.add(product.id);
      if (body.lastKey !== null) {
        // Strict base64 (RFC 4648 alphabet and padding): decoding and encoding again gives it back.
        expect(body.lastKey).not.toBe('');
        expect(body.lastKey).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
        expect(Buffer.from(body.lastKey, 'base64').toString('base64')).toBe(body.lastKey);
      }
      lastKey = body.lastKey;
      pages += 1;
    } while (lastKey !== null && pages < 500);
    expect(lastKey).toBeNull();
    expect(seen.has(marker.id)).toBe(true);
    expect(seen.has(archived.id)).toBe(true);
    expect(seen.has(inactive.id)).toBe(false);
    expect(seen.has(discontinued.id)).toBe(false);
    expect(seen.size).toBeLessThan(DEMO_PRODUCTS);
    expect((await call('/products')).status).toBe(401);
    expect((await call('/products', { token: brandsOnly.token })).status).toBe(403);
  });

  it('[4.1 /products limit][8 limit] limit defaults to 20', async () => {
    const reply = await call('/products', { token: reader.token });
    expect((reply.body as { products: unknown[] }).products).toHaveLength(20);
    const five = await call('/products?limit=5', { token: reader.token });
    expect((five.body as { products: unknown[] }).products).toHaveLength(5);
  });

  it('[4.1 /products lastKey][7.1 400] a malformed lastKey is a 400, not a 5xx', async () => {
    for (const lastKey of ['%%%', 'bm90LWEtY3Vyc29y', 'AAAA']) {
      const reply = await call(`/products?lastKey=${encodeURIComponent(lastKey)}`, { token: reader.token });
      expect(reply.status, lastKey).toBe(400);
    }
  });
});

describe('4.1 brand routes', () => {
  it('[4.1 /brands] GET /brands is a raw array, not paginated (limit and lastKey do nothing); includeArchived=true adds archived brands', async () => {
    const brand = await createBrand(call, admin, { name: `Archived Brand ${uniqueCode('AB')}` });
    const archive = await call(`/brands/${encodeURIComponent(brand.id)}`, { method: 'DELETE', token: admin });
    expect(archive.status).toBe(200);
    const [plain, limited, withArchived] = await Promise.all([
      call('/brands', { token: brandsOnly.token }),
      call('/brands?limit=1&lastKey=abc', { token: brandsOnly.token }),
      call('/brands?includeArchived=true', { token: brandsOnly.token }),
    ]);
    expect(Array.isArray(plain.body)).toBe(true);
    const names = (reply: { body: unknown }) => (reply.body as Brand[]).map((entry) => entry.name);
    expect(names(plain).length).toBeGreaterThan(12);
    expect(names(limited)).toEqual(names(plain));
    expect(names(plain)).not.toContain(brand.name);
    expect(names(withArchived)).toContain(brand.name);
    expect((await call('/brands')).status).toBe(401);
    expect((await call('/brands', { token: productsOnly.token })).status).toBe(403);
  });

  it('[4.1 /brands/search][8 size][8 from] q (omit = all), size default 20 max 100, from default 0; {data, pagination {total, from, size}, meta} only', async () => {
    const all = await call('/brands/search', { token: brandsOnly.token });
    const body = all.body as BrandSearchResponse;
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toEqual({ total: body.pagination.total, from: 0, size: 20 });
    expect(Object.keys(body).sort()).toEqual(['data', 'meta', 'pagination']);
    const total = body.pagination.total;
    const paged = await call('/brands/search?from=20&size=100', { token: brandsOnly.token });
    expect((paged.body as BrandSearchResponse).data).toHaveLength(Math.min(100, total - 20));
    const named = await call(`/brands/search?q=${encodeURIComponent(brandFixture.name)}`, {
      token: brandsOnly.token,
    });
    expect((named.body as BrandSearchResponse).data.map((brand) => brand.name)).toContain(brandFixture.name);
    const over = await call('/brands/search?size=101', { token: brandsOnly.token });
    expect(over.status).toBe(400);
    expect((await call('/brands/search')).status).toBe(401);
    expect((await call('/brands/search', { token: productsOnly.token })).status).toBe(403);
  });

  it('[4.1 /brands/{id}] GET /brands/{id} returns the brand; unknown is 404', async () => {
    const [first] = (await call('/brands', { token: brandsOnly.token })).body as Brand[];
    const one = await call(`/brands/${encodeURIComponent(first?.id ?? '')}`, { token: brandsOnly.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
    expect((await call('/brands/no-such-brand-here', { token: brandsOnly.token })).status).toBe(404);
    expect((await call(`/brands/${first?.id}`)).status).toBe(401);
    expect((await call(`/brands/${first?.id}`, { token: productsOnly.token })).status).toBe(403);
  });
});

describe('4.1 scopes and routes denied to M2M tokens', () => {
  it('[4.1 scope][5 rule 4] products.read opens the product routes only, brands.read the brand routes only', async () => {
    const productRoutes = ['/products/search', `/products/${marker.id}`, '/products'];
    const brandRoutes = ['/brands', '/brands/search'];
    for (const path of productRoutes) {
      expect((await call(path, { token: productsOnly.token })).status, path).toBe(200);
      expect((await call(path, { token: brandsOnly.token })).status, path).toBe(403);
    }
    for (const path of brandRoutes) {
      expect((await call(path, { token: brandsOnly.token })).status, path).toBe(200);
      expect((await call(path, { token: productsOnly.token })).status, path).toBe(403);
    }
  });

  const denied: [key: string, method: string, path: string, body?: unknown][] = [
    ['denied /brands/overview', 'GET', '/brands/overview'],
    [
      'denied /products/existing-for-preview',
      'POST',
      '/products/existing-for-preview',
      { productCodes: ['X'] },
    ],
    ['denied /products/batch-get', 'POST', '/products/batch-get', { ids: ['x'] }],
    ['denied /products/check-duplicates', 'POST', '/products/check-duplicates', { productCode: 'X' }],
  ];
  for (const [key, method, path, body] of denied) {
    it(`[4.1 ${key}][7.1 403] ${method} ${path} is 403 to every M2M token, whatever its scopes`, async () => {
      for (const caller of [reader, everyScope, productsOnly, brandsOnly]) {
        const reply = await call(path, {
          method,
          token: caller.token,
          ...(body === undefined ? {} : { body }),
        });
        expect(reply.status).toBe(403);
      }
      const asAdmin = await call(path, { method, token: admin, ...(body === undefined ? {} : { body }) });
      expect(asAdmin.status).toBe(200);
    });
  }

  it('[4.1 denied /clients*] every /clients* route, whatever the method, is 403 to every M2M token', async () => {
    for (const path of ['/clients', '/clients/42', '/clients/42/quotes/7', '/clients/search?q=a'])
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
        for (const caller of [everyScope, productsOnly]) {
          const reply = await call(path, {
            method,
            token: caller.token,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          });
          expect(reply.status, `${method} ${path}`).toBe(403);
        }
  });

  it('[4.1 denied writes][5 rule 4] every POST/PUT/DELETE on products and brands is 403 to an M2M token, even with .write scopes', async () => {
    const [brand] = (await call('/brands', { token: everyScope.token })).body as Brand[];
    const writes: [string, string, unknown?][] = [
      ['POST', '/products', { productCode: uniqueCode('M2M'), name: 'Not allowed' }],
      ['PUT', `/products/${marker.id}`, { productCode: marker.productCode, name: 'Not allowed' }],
      ['DELETE', `/products/${marker.id}`],
      ['POST', '/brands', { name: 'Not allowed' }],
      ['PUT', `/brands/${brand?.id}`, { name: 'Not allowed' }],
      ['DELETE', `/brands/${brand?.id}`],
    ];
    for (const caller of [everyScope, reader]) {
      for (const [method, path, body] of writes) {
        const reply = await call(path, {
          method,
          token: caller.token,
          ...(body === undefined ? {} : { body }),
        });
        expect(reply.status, `${method} ${path}`).toBe(403);
      }
    }
    const still = await call(`/products/${marker.id}`, { token: reader.token });
    expect((still.body as Product).name).toBe('Zqxnameword marker product');
  });
});
