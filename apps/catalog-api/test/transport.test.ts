import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let admin: string;
let token: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 5 });
  admin = await stack.idToken(['admin']);
  token = (await stack.m2mToken(['products.read'])).token;
});
afterAll(() => stack?.stop());

describe('request bodies (spec 4: JSON request bodies use application/json)', () => {
  it('answers 415 to a body that is not application/json', async () => {
    const reply = await stack.call('/oauth/clients', {
      method: 'POST',
      token: admin,
      headers: { 'Content-Type': 'text/plain' },
      body: 'clientName=x',
    });
    expect(reply.status).toBe(415);
    expect(reply.body).toHaveProperty('message');
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR, never a 500', async () => {
    const reply = await stack.call('/oauth/clients', {
      method: 'POST',
      token: admin,
      body: '{"clientName": ',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('answers a body over 1 MB with 413', async () => {
    const reply = await stack.call('/oauth/clients', {
      method: 'POST',
      token: admin,
      body: { clientName: 'Big', scopes: ['products.read'], description: 'x'.repeat(1_100_000) },
    });
    expect(reply.status).toBe(413);
  });
});

describe('routes and methods (spec 7.1)', () => {
  it('answers an unknown route with 404, error NOT_FOUND and the requestId that is also sent as a header', async () => {
    const reply = await stack.call<Record<string, unknown>>('/no/such/route', { token });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      message: 'Not Found',
      error: 'NOT_FOUND',
      requestId: reply.headers['x-request-id'],
    });
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const reply = await stack.call('/products/search', { method: 'POST', token });
    expect(reply.status).toBe(405);
    expect(String(reply.headers.allow)).toContain('GET');
  });

  it('quotes the requestId of every error in its body and header', async () => {
    const reply = await stack.call<{ requestId: string }>('/products/search?size=500', { token });
    expect(reply.body.requestId).toBe(reply.headers['x-request-id']);
  });
});

describe('the contract, served (issue 5)', () => {
  it('serves the OpenAPI document at /openapi.json with this deployment as its server, without a token', async () => {
    const reply = await stack.call<{ openapi: string; servers: { url: string }[]; paths: object }>(
      '/openapi.json',
    );
    expect(reply.status).toBe(200);
    expect(reply.body.openapi).toMatch(/^3\.1/);
    expect(reply.body.servers[0]?.url).toBe(stack.api.url);
    expect(reply.body.paths).toHaveProperty('/products/search');
  });

  it('renders the document for people at /docs with its assets served locally', async () => {
    const page = await stack.call<string>('/docs');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toContain('text/html');
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) expect((await stack.call(asset)).status, asset).toBe(200);
  });
});
