import { checkProperty } from '@catalog/vitest-config/property';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let token: string;
let productId: string;

beforeAll(async () => {
  stack = await startStack();
  token = (await stack.m2mToken(['products.read', 'brands.read'])).token;
  await stack.store.brands.create({ name: 'Zephyr Tools' });
  productId = (
    await stack.store.products.create({
      productCode: 'NUL-1',
      name: 'Quasar widget',
      brandName: 'Zephyr Tools',
    })
  ).id;
});
afterAll(() => stack?.stop());

/**
 * Percent-encodes every UTF-16 code unit of `text` as UTF-8, a lone surrogate as the three bytes
 * it would take (invalid UTF-8, as a careless client sends it): encodeURIComponent refuses those.
 */
function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    const bytes =
      char.length === 1 && char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff
        ? [
            0xe0 | (char.charCodeAt(0) >> 12),
            0x80 | ((char.charCodeAt(0) >> 6) & 0x3f),
            0x80 | (char.charCodeAt(0) & 0x3f),
          ]
        : [...Buffer.from(char, 'utf8')];
    out += bytes.map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
  }
  return out;
}

/** Any UTF-16 code unit, lone surrogates and control characters included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const hostileText = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom('a', 'b', ' ', '\u0000', '\t', '\u001f', '\u007f', '\ud800', '"', '*'),
    maxLength: 24,
  }),
);

describe('q with control characters is searched with them read as separators, never a 5xx', () => {
  it('GET /products/search?q=quasar%00widget finds the product named "Quasar widget" with 200', async () => {
    const reply = await stack.call<{ data: { id: string }[] }>('/products/search?q=quasar%00widget', {
      token,
      operation: 'searchProducts',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((product) => product.id)).toEqual([productId]);
  });

  it('GET /brands/search?q=zephyr%00tools finds the brand with 200', async () => {
    const reply = await stack.call<{ data: { name: string }[] }>('/brands/search?q=zephyr%00tools', {
      token,
      operation: 'searchBrands',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((brand) => brand.name)).toEqual(['Zephyr Tools']);
  });

  it('answers any q of control characters, lone surrogates and FTS5 syntax with 200 on both search routes, never a 5xx', async () => {
    // Each run is one HTTPS request through the real stack; the budget guards a loaded machine.
    await checkProperty(
      fc.asyncProperty(hostileText, fc.constantFrom('products', 'brands'), async (q, resource) => {
        const reply = await stack.call(`/${resource}/search?q=${percentEncode(q)}`, { token });
        expect(reply.status, `q=${JSON.stringify(q)} → ${reply.text}`).toBe(200);
      }),
      { runs: 150, heavyRuns: 3_000, seed: 20261123 },
    );
  });
});

describe('a query parameter sent twice is 400 VALIDATION_ERROR naming it', () => {
  it('GET /products/search?q=a&q=b answers VALIDATION_ERROR with details {field: q}, not SEARCH_TERM_TOO_LONG', async () => {
    const reply = await stack.call('/products/search?q=a&q=b', { token, operation: 'searchProducts' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'q', reason: 'must be given once' },
    });
  });

  it('GET /products/search?size=5&size=6 answers VALIDATION_ERROR for size', async () => {
    const reply = await stack.call('/products/search?size=5&size=6', { token, operation: 'searchProducts' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'size', reason: 'must be given once' },
    });
  });

  it('GET /brands/search?q=a&q=b answers the code in `code` (spec 7.2)', async () => {
    const reply = await stack.call('/brands/search?q=a&q=b', { token, operation: 'searchBrands' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'q', reason: 'must be given once' },
    });
  });

  it('refuses any repeated parameter the same way (fields on /products/search, includeArchived on /brands)', async () => {
    const reply = await stack.call('/products/search?fields=id&fields=name', { token });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'fields', reason: 'must be given once' },
    });
    const brands = await stack.call('/brands?includeArchived=true&includeArchived=false', { token });
    expect(brands.status).toBe(400);
    expect(brands.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { field: 'includeArchived', reason: 'must be given once' },
    });
  });
});
