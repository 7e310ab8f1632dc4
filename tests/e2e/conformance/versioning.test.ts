// Spec part 9: no version segment, the stage as a leading segment of the base URL (BASE_PATH), the
// deprecated GET /products. The token lifetimes of part 9 are checked in token-endpoint.
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { type Call, contractCall } from './support/contract.ts';
import { type M2MCaller, m2mCaller, sdkClient } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let reader: M2MCaller;

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 120, env: { BASE_PATH: '/prod' } });
  call = contractCall(stack);
  reader = await m2mCaller(stack, ['products.read', 'brands.read']);
});
afterAll(() => stack?.stop());

describe('9 versioning', () => {
  it("[9 paths][5 rule 10] no version segment; the stage is the base URL's leading segment, used as provided over HTTPS", async () => {
    expect(stack.baseUrl).toMatch(/^https:\/\/[^/]+\/prod$/);
    const document = await call('/openapi.json');
    expect(document.status).toBe(200);
    for (const path of Object.keys((document.body as { paths: object }).paths))
      expect(path, path).not.toMatch(/^\/(v\d+|api\/v\d+|prod)\b/);
    const client = sdkClient(stack, reader);
    try {
      expect((await client.products.search({ size: 3 })).data).toHaveLength(3);
      expect((await client.brands.list()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    const origin = new URL(stack.baseUrl).origin;
    for (const path of ['/products/search', '/v1/products/search', '/prod/v1/products/search']) {
      const reply = await rawRequest(`${origin}${path}`, {
        ca: stack.ca,
        headers: { authorization: `Bearer ${reader.token}` },
      });
      expect(reply.status, path).toBe(404);
    }
  });

  it('[9 GET /products deprecated][4.1 /products] GET /products answers with a Deprecation header; GET /products/search replaces it', async () => {
    const list = await call('/products?limit=5', { token: reader.token });
    expect(list.status).toBe(200);
    expect(String(list.headers.deprecation)).toMatch(/^@\d+$/);
    const replacement = await call('/products/search?size=5', { token: reader.token });
    expect(replacement.status).toBe(200);
    expect(replacement.headers).not.toHaveProperty('deprecation');
    for (const product of (list.body as { products: { id: string }[] }).products)
      expect((await call(`/products/${product.id}`, { token: reader.token })).status).toBe(200);
    const document = (await call('/openapi.json')).body as {
      paths: Record<string, Record<string, { deprecated?: boolean }>>;
    };
    expect(document.paths['/products']?.get?.deprecated).toBe(true);
  });
});
