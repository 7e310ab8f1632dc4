import { ADMIN_PRODUCT_FIELDS } from '@catalog/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

type Json = Record<string, unknown>;

let stack: Stack;
let admin: string;
let others: string[] = [];

const CHANNEL = 'rmw-shop';

beforeAll(async () => {
  stack = await startStack();
  admin = await stack.idToken(['admin']);
  await stack.store.webChannels.create({ slug: CHANNEL, name: 'Read-modify-write shop' });
  others = [];
  for (const code of ['RMW-A', 'RMW-B']) {
    const reply = await stack.call<Json>('/products', {
      method: 'POST',
      token: admin,
      body: { productCode: code, name: `Other ${code}` },
    });
    others.push(String(reply.body.id));
  }
}, 180_000);
afterAll(() => stack?.stop());

const words = fc
  .array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'Ωmega', 'café'), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(' '));
const amount = fc.integer({ min: 0, max: 1_000_000 }).map((cents) => cents / 100);
const url = words.map((text) => `https://cdn.example.com/${encodeURIComponent(text)}.jpg`);
const linkedFiles = fc.array(fc.record({ url, name: words }), { maxLength: 2 });

/**
 * A new valid value for each field an administrator writes. `brandName` and `brandSlug` name one
 * brand (a write resolves it by slug first): the brand is changed by name, the slug left to follow.
 */
const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  productCode: words.map((text) => `RMW ${text}`),
  name: words,
  brandName: words,
  price: amount,
  retailPrice: amount,
  supplierCost: amount,
  costPrice: fc.option(amount, { nil: null }),
  marginPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  length: amount,
  height: amount,
  width: amount,
  weight: amount,
  status: fc.constantFrom('active', 'inactive', 'discontinued'),
  archived: fc.boolean(),
  displayOnWeb: fc.boolean(),
  imageUrl: url,
  images: linkedFiles,
  documents: linkedFiles,
  webVisibility: fc.dictionary(fc.constant(CHANNEL), fc.boolean(), { maxKeys: 1 }),
  relatedProducts: fc.constant(null).chain(() =>
    fc.uniqueArray(
      fc.record({
        productId: fc.constantFrom(...others),
        relationType: fc.constantFrom('required', 'optional', 'substitute'),
        qty: fc.integer({ min: 1, max: 9 }),
        note: words,
      }),
      { maxLength: 2, selector: (entry) => `${entry.productId} ${entry.relationType}` },
    ),
  ),
  spares: fc.constant(null).chain(() =>
    fc.array(fc.record({ productId: fc.constantFrom(...others), qty: fc.integer({ min: 1, max: 9 }) }), {
      maxLength: 1,
    }),
  ),
};
const TEXT = words;
const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt', 'brandSlug']);
const FIELDS = ADMIN_PRODUCT_FIELDS.filter((field) => !SERVER_SET.has(field));

/** Where the record is read from, and how it is written back. */
const READS = ['GET /admin/products/{id}', 'POST /products/batch-get', 'GET /products/{id}'] as const;
const WRITES = ['PUT', 'PATCH'] as const;

async function adminRecord(id: string): Promise<{ record: Json; etag: string }> {
  const reply = await stack.call<Json>(`/admin/products/${id}`, {
    token: admin,
    operation: 'getAdminProduct',
  });
  expect(reply.status, reply.text).toBe(200);
  return { record: reply.body, etag: String(reply.headers.etag) };
}

async function read(id: string, how: (typeof READS)[number]): Promise<Json> {
  if (how === 'GET /admin/products/{id}') return (await adminRecord(id)).record;
  if (how === 'POST /products/batch-get') {
    const reply = await stack.call<{ products: Json[] }>('/products/batch-get', {
      method: 'POST',
      token: admin,
      body: { ids: [id] },
    });
    return reply.body.products[0] as Json;
  }
  return (await stack.call<Json>(`/products/${id}`, { token: admin, operation: 'getProduct' })).body;
}

let made = 0;

describe('a read-modify-write through any documented read never loses a field (issue: admin writes that never lose data)', () => {
  it('read, change one field, write back (PUT of the whole body or PATCH of that field), read: only that field changed', async () => {
    const field = fc.constantFrom(...FIELDS);
    await fc.assert(
      fc.asyncProperty(
        field.chain((name) =>
          fc.record({
            name: fc.constant(name),
            value: VALUES[name] ?? TEXT,
            via: fc.constantFrom(...READS),
            write: fc.constantFrom(...WRITES),
          }),
        ),
        async ({ name, value, via, write }) => {
          made += 1;
          const created = await stack.call<Json>('/products', {
            method: 'POST',
            token: admin,
            body: {
              productCode: `RMW-${made}`,
              name: 'Full record',
              brandName: 'Read Modify',
              description: 'every field set',
              colour: 'teal',
              price: 9.5,
              costPrice: 4.25,
              marginPercent: 40,
              internalNote: 'keep this',
              status: 'inactive',
              displayOnWeb: true,
              webVisibility: { [CHANNEL]: false },
              images: [{ url: 'https://cdn.example.com/a.jpg', name: 'Front' }],
              relatedProducts: [{ productId: others[0], relationType: 'optional', qty: 2, note: 'a note' }],
              spares: [{ productId: others[1], qty: 1 }],
            },
          });
          expect(created.status, created.text).toBe(201);
          const id = String(created.body.id);
          const before = await adminRecord(id);
          const { brandSlug, ...body } = await read(id, via);
          const brand = name === 'brandName' ? {} : { brandSlug };
          const reply =
            write === 'PUT'
              ? await stack.call<Json>(`/products/${id}`, {
                  method: 'PUT',
                  token: admin,
                  headers: { 'If-Match': before.etag },
                  body: { ...body, ...brand, [name]: value },
                })
              : await stack.call<Json>(`/products/${id}`, {
                  method: 'PATCH',
                  token: admin,
                  headers: { 'If-Match': before.etag, 'Content-Type': 'application/merge-patch+json' },
                  body: name === 'brandName' ? { brandName: value, brandSlug: null } : { [name]: value },
                });
          expect(reply.status, reply.text).toBe(200);
          const after = await adminRecord(id);
          const expected: Json = { ...before.record, [name]: value, updatedAt: after.record.updatedAt };
          // The brand's slug follows its name; a null that removes a field leaves its default.
          if (name === 'brandName') expected.brandSlug = after.record.brandSlug;
          if (value === null) expected[name] = null;
          expect(after.record).toEqual(expected);
        },
      ),
      { numRuns: 60, seed: 29 },
    );
  }, 600_000);
});
