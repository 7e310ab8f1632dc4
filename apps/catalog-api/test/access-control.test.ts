import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let productsRead: string;
let brandsRead: string;
let writeOnly: string;
let admin: string;
let nonAdmin: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 30 });
  productsRead = (await stack.m2mToken(['products.read'])).token;
  brandsRead = (await stack.m2mToken(['brands.read'])).token;
  writeOnly = (await stack.m2mToken(['products.write', 'brands.write'])).token;
  admin = await stack.idToken(['admin']);
  nonAdmin = await stack.idToken(['staff']);
});
afterAll(() => stack?.stop());

const anyProductId = async () => {
  const page = await stack.call<{ data: { id: string }[] }>('/products/search?size=1', {
    token: productsRead,
  });
  return page.body.data[0]?.id ?? '';
};

describe('authentication (spec 5.1, 7.1)', () => {
  it('answers 401 with only a message when no Authorization header is sent', async () => {
    const reply = await stack.call('/products/search', { operation: 'searchProducts' });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ message: 'Unauthorized' });
  });

  it('answers 401 when the scheme word is not exactly "Bearer" (spec 5.1)', async () => {
    const reply = await stack.call('/products/search', {
      headers: { Authorization: `bearer ${productsRead}` },
    });
    expect(reply.status).toBe(401);
  });

  it('answers 401 to a quoted token (spec 5.1: the token is not quoted)', async () => {
    const reply = await stack.call('/products/search', {
      headers: { Authorization: `Bearer "${productsRead}"` },
    });
    expect(reply.status).toBe(401);
  });

  it('answers 401 to a token signed by another key (forged)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ client_id: 'x'.repeat(26), scope: 'crm-api/products.read' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: (await exportJWK(publicKey)).kid ?? 'k1' })
      .setIssuer(stack.auth.url)
      .setAudience('crm-api')
      .setSubject('x'.repeat(26))
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    expect((await stack.call('/products/search', { token: forged })).status).toBe(401);
  });

  it('answers 401 to a token whose signature was tampered with', async () => {
    const [header, payload] = productsRead.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(86)}`;
    expect((await stack.call('/products/search', { token: tampered })).status).toBe(401);
  });

  it('answers 401 to an expired token (spec 5.7)', async () => {
    const { client, secret } = await stack.client({ scopes: ['products.read'], lifetimeSeconds: 1 });
    const token = await stack.accessToken(client.clientId, secret, ['products.read']);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await stack.call('/products/search', { token })).status).toBe(401);
  });
});

describe('scopes per route (spec 5.4)', () => {
  const productRoutes = ['/products/search', '/products?limit=1'];
  const brandRoutes = ['/brands', '/brands/search'];

  it('lets products.read call the product routes and refuses the brand routes with 403', async () => {
    for (const path of productRoutes)
      expect((await stack.call(path, { token: productsRead })).status, path).toBe(200);
    expect((await stack.call(`/products/${await anyProductId()}`, { token: productsRead })).status).toBe(200);
    for (const path of brandRoutes) {
      const reply = await stack.call(path, { token: productsRead });
      expect(reply.status, path).toBe(403);
      expect(reply.body).toEqual({ message: 'Forbidden' });
    }
  });

  it('lets brands.read call the brand routes and refuses the product routes with 403', async () => {
    for (const path of brandRoutes)
      expect((await stack.call(path, { token: brandsRead })).status, path).toBe(200);
    for (const path of productRoutes)
      expect((await stack.call(path, { token: brandsRead })).status, path).toBe(403);
  });

  it('gives the .write scopes nothing at all (spec 5.4)', async () => {
    for (const path of [...productRoutes, ...brandRoutes]) {
      expect((await stack.call(path, { token: writeOnly })).status, path).toBe(403);
    }
  });
});

describe('routes denied to every M2M token (spec 4.1)', () => {
  const denied: [string, string, unknown?][] = [
    ['GET', '/brands/overview'],
    ['POST', '/products/existing-for-preview', { productCodes: ['X'] }],
    ['POST', '/products/batch-get', { ids: ['00000000-0000-4000-8000-000000000000'] }],
    ['POST', '/products/check-duplicates', { productCode: 'X' }],
    ['POST', '/products', { productCode: 'NEW-1', name: 'New' }],
    ['PUT', '/products/00000000-0000-4000-8000-000000000000', { productCode: 'NEW-1', name: 'New' }],
    ['DELETE', '/products/00000000-0000-4000-8000-000000000000'],
    ['POST', '/brands', { name: 'New brand' }],
    ['PUT', '/brands/some-brand', { name: 'Renamed' }],
    ['DELETE', '/brands/some-brand'],
    ['GET', '/clients'],
    ['GET', '/clients/123'],
    ['POST', '/clients/123/notes/7', { text: 'x' }],
    ['DELETE', '/clients'],
  ];

  it('answers 403 to a token holding every scope, write scopes included', async () => {
    const everything = (
      await stack.m2mToken(['products.read', 'products.write', 'brands.read', 'brands.write'])
    ).token;
    for (const [method, path, body] of denied) {
      const reply = await stack.call(path, {
        method,
        token: everything,
        ...(body === undefined ? {} : { body }),
      });
      expect(reply.status, `${method} ${path}`).toBe(403);
    }
  });

  it('answers 404 to an administrator on /clients* (not served here)', async () => {
    const reply = await stack.call('/clients/123', { token: admin });
    expect(reply.status).toBe(404);
    expect((reply.body as { error: string }).error).toBe('NOT_FOUND');
  });
});

describe('administrators (spec 4.2, 5.5; decisions: Identity)', () => {
  it('refuses an M2M token on the client-management routes with 403 "Admin role required"', async () => {
    const reply = await stack.call('/oauth/clients', { token: productsRead, operation: 'listM2MClients' });
    expect(reply.status).toBe(403);
    expect((reply.body as { message: string }).message).toBe('Admin role required');
  });

  it('refuses an ID token without the admin group with 403 "Admin role required"', async () => {
    const reply = await stack.call('/oauth/clients', { token: nonAdmin, operation: 'listM2MClients' });
    expect(reply.status).toBe(403);
    expect((reply.body as { message: string }).message).toBe('Admin role required');
  });

  it('lets an administrator read the catalogue with the same allowlisted representation', async () => {
    const asAdmin = await stack.call<{ data: object[] }>('/products/search?size=5', {
      token: admin,
      operation: 'searchProducts',
    });
    const asM2M = await stack.call<{ data: object[] }>('/products/search?size=5', { token: productsRead });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data).toEqual(asM2M.body.data);
  });

  it('refuses an ID token used where the token server expects a client secret (wrong type at the API: 401)', async () => {
    // An access token for another audience is not an ID token of the admin client either.
    const [, payload] = admin.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    expect(claims.aud).toBe('catalog-admin');
    const reply = await stack.call('/oauth/clients', { token: `${admin}x` });
    expect(reply.status).toBe(401);
  });
});
