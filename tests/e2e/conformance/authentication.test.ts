// Spec part 5 (rules 1, 4, 5, 10) and the 401 row of 7.1: how a caller authenticates, over the wire.
// Scopes (rules 2, 3), secrets (6), lifetimes (7), revocation (8), expiry (9) and the allowlist (11)
// are checked beside the routes they concern (token-endpoint, client-states, resources).
import { rawRequest } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { type Call, contractCall } from './support/contract.ts';
import { adminToken, type M2MCaller, m2mCaller, nonAdminIdToken } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let staff: string;
let reader: M2MCaller;
let writer: M2MCaller;

const withHeader = (authorization: string, path = '/products/search?size=1') =>
  call(path, { headers: { authorization } });

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 200 });
  call = contractCall(stack);
  [admin, staff] = await Promise.all([adminToken(stack), nonAdminIdToken(stack)]);
  [reader, writer] = await Promise.all([
    m2mCaller(stack, ['products.read', 'brands.read']),
    m2mCaller(stack, ['products.write', 'brands.write']),
  ]);
});
afterAll(() => stack?.stop());

describe('5 rule 1: Authorization: Bearer <ACCESS_TOKEN>', () => {
  it('[5 rule 1][7.1 200] the word Bearer, one space, the token unquoted: 200', async () => {
    expect((await withHeader(`Bearer ${reader.token}`)).status).toBe(200);
  });

  it('[5 rule 1][7.1 401][7.3 UNAUTHORIZED][7.2 gateway bodies] another capitalisation, a quoted token, another scheme, a missing or malformed header: 401 with a message-only body', async () => {
    const variants = [
      `bearer ${reader.token}`,
      `BEARER ${reader.token}`,
      `Bearer "${reader.token}"`,
      `Bearer '${reader.token}'`,
      `Token ${reader.token}`,
      `Basic ${Buffer.from(`${reader.clientId}:${reader.clientSecret}`).toString('base64')}`,
      `Bearer  ${reader.token}`,
      `Bearer ${reader.token} extra`,
      reader.token,
      'Bearer',
      'Bearer ',
      '',
    ];
    for (const header of variants) {
      const reply = await withHeader(header);
      expect(reply.status, JSON.stringify(header.slice(0, 20))).toBe(401);
      expect(typeof (reply.body as { message: unknown }).message).toBe('string');
      if ('error' in (reply.body as object)) expect(reply.body).toMatchObject({ error: 'UNAUTHORIZED' });
    }
    const none = await call('/products/search?size=1');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: 'Unauthorized' });
  });

  it('[7.1 401][7.3 UNAUTHORIZED] a malformed, tampered or unsigned token is 401', async () => {
    const [header, payload, signature] = reader.token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(
      JSON.stringify({ ...claims, scope: 'crm-api/products.read crm-api/brands.read crm-api/clients.read' }),
    ).toString('base64url');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    for (const token of [
      'not-a-jwt',
      `${header}.${payload}`,
      `${header}.${forged}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -4)}AAAA`,
      unsigned,
    ]) {
      const reply = await call('/products/search?size=1', { token });
      expect(reply.status, token.slice(-12)).toBe(401);
      expect(reply.body).toEqual({ message: 'Unauthorized' });
    }
  });
});

describe('5 rules 4 and 5: what each credential opens', () => {
  it('[5 rule 4][4.1 scope] .write scopes unlock nothing for an M2M caller: no read, no write', async () => {
    for (const path of ['/products/search', '/products', '/brands', '/brands/search'])
      expect((await call(path, { token: writer.token })).status, path).toBe(403);
    const write = await call('/products', {
      method: 'POST',
      token: writer.token,
      body: { productCode: 'W-1', name: 'Writer' },
    });
    expect(write.status).toBe(403);
  });

  it('[5 rule 5][4.2 caller] client management takes an admin-group ID token, never an M2M access token', async () => {
    expect((await call('/oauth/clients', { token: admin })).status).toBe(200);
    expect((await call('/oauth/clients', { token: reader.token })).status).toBe(403);
    expect((await call('/oauth/clients', { token: writer.token })).status).toBe(403);
    expect((await call('/oauth/clients', { token: staff })).status).toBe(403);
  });
});

describe('5 rule 10: HTTPS only', () => {
  it('[5 rule 10] plain HTTP is not served by the API nor by the token server', async () => {
    for (const base of [stack.baseUrl, stack.authUrl]) {
      const url = `${base.replace('https://', 'http://')}/products/search?size=1`;
      const reply = await rawRequest(url, { headers: { authorization: `Bearer ${reader.token}` } }).catch(
        (error: Error) => ({ status: 0, body: error.message, headers: {} }),
      );
      expect(reply.status === 0 || reply.status >= 400, `${url}: ${reply.status}`).toBe(true);
      expect(reply.body).not.toContain('"data"');
    }
    const token = await rawRequest(`${stack.authUrl.replace('https://', 'http://')}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: reader.clientId,
        client_secret: reader.clientSecret,
        scope: 'crm-api/products.read',
      }).toString(),
    }).catch((error: Error) => ({ status: 0, body: error.message, headers: {} }));
    expect(token.status === 0 || token.status >= 400).toBe(true);
    expect(token.body).not.toContain('access_token');
  });
});
