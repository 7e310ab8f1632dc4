// Spec part 4.3 and 2.5 (with the scope rules of part 5, the token lifetimes of parts 8 and 9 and the
// token-endpoint errors of 7.4): POST {auth_url}/oauth2/token over the wire, every reply validated
// against the token server's OpenAPI document; token reuse through the SDK.
import type { M2MClientCreated } from '@catalog/contracts';
import { createMemoryTokenStore } from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { makeOlderClient } from './support/aged-clients.ts';
import { type Call, contractCall, jwtPayload, tokenRequest } from './support/contract.ts';
import { adminToken, sdkClient } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let client: M2MClientCreated; // products.read + brands.read
let form: Record<string, string>;

const createClient = async (scopes: string[]) => {
  const reply = await call('/oauth/clients', {
    method: 'POST',
    token: admin,
    body: { clientName: `token client ${Date.now()}`, scopes },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as M2MClientCreated;
};
const refused = async (
  fields: Record<string, string>,
  error: string,
  headers: Record<string, string> = {},
) => {
  const reply = await tokenRequest(stack, fields, headers);
  expect(reply.status, JSON.stringify(fields)).toBe(400);
  expect(reply.body.error, JSON.stringify(fields)).toBe(error);
  expect(typeof reply.body.error_description).toBe('string');
  return reply;
};

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 50 });
  call = contractCall(stack);
  admin = await adminToken(stack);
  client = await createClient(['products.read', 'brands.read']);
  form = {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    scope: 'crm-api/products.read crm-api/brands.read',
  };
});
afterAll(() => stack?.stop());

describe('4.3 the form fields', () => {
  it('[4.3 response][2.5 access_token][2.5 token_type][2.5 expires_in][7.1 200] 200: access_token, token_type Bearer, expires_in 3600 for a client created through the API', async () => {
    const reply = await tokenRequest(stack, form);
    expect(reply.status).toBe(200);
    expect(typeof reply.body.access_token).toBe('string');
    expect(reply.body.token_type).toBe('Bearer');
    expect(reply.body.expires_in).toBe(3600);
    expect(Number.isInteger(reply.body.expires_in)).toBe(true);
  });

  it('[4.3 grant_type] grant_type is required and must be client_credentials', async () => {
    const { grant_type: _, ...without } = form;
    const missing = await tokenRequest(stack, without);
    expect(missing.status).toBe(400);
    for (const grant_type of ['password', 'authorization_code', 'Client_Credentials']) {
      const reply = await tokenRequest(stack, { ...form, grant_type });
      expect(reply.status, grant_type).toBe(400);
      expect(typeof reply.body.error).toBe('string');
    }
  });

  it('[4.3 client_id][4.3 client_secret][7.4 token endpoint errors][7.1 400] wrong or missing credentials and a secret with stray whitespace are 400 invalid_client', async () => {
    await refused({ ...form, client_id: 'Z'.repeat(26) }, 'invalid_client');
    await refused({ ...form, client_secret: `${client.clientSecret}x` }, 'invalid_client');
    await refused({ ...form, client_secret: ` ${client.clientSecret}` }, 'invalid_client');
    await refused({ ...form, client_secret: `${client.clientSecret} ` }, 'invalid_client');
    await refused({ ...form, client_secret: `${client.clientSecret}\n` }, 'invalid_client');
    const { client_secret: _, ...noSecret } = form;
    expect((await tokenRequest(stack, noSecret)).status).toBe(400);
    const { client_id: __, ...noId } = form;
    expect((await tokenRequest(stack, noId)).status).toBe(400);
  });

  it('[7.4 token endpoint errors] an ID token used as credentials is invalid_client; so is a revoked client', async () => {
    await refused({ ...form, client_secret: admin }, 'invalid_client');
    await refused({ grant_type: 'client_credentials', scope: 'crm-api/products.read' }, 'invalid_client', {
      authorization: `Bearer ${admin}`,
    });
    const revoked = await createClient(['products.read']);
    await call(`/oauth/clients/${revoked.clientId}`, { method: 'DELETE', token: admin });
    await refused(
      {
        grant_type: 'client_credentials',
        client_id: revoked.clientId,
        client_secret: revoked.clientSecret,
        scope: 'crm-api/products.read',
      },
      'invalid_client',
    );
  });

  it('[4.3 scope][5 rule 2] scope is space-separated crm-api/ scopes and may list fewer than granted; the token carries exactly those', async () => {
    const one = await tokenRequest(stack, { ...form, scope: 'crm-api/brands.read' });
    expect(one.status).toBe(200);
    expect(jwtPayload(one.body.access_token as string).scope).toBe('crm-api/brands.read');
    const token = one.body.access_token as string;
    expect((await call('/brands', { token })).status).toBe(200);
    expect((await call('/products/search', { token })).status).toBe(403);
    const both = await tokenRequest(stack, form);
    expect(
      String(jwtPayload(both.body.access_token as string).scope)
        .split(' ')
        .sort(),
    ).toEqual(['crm-api/brands.read', 'crm-api/products.read']);
  });

  it('[4.3 scope] scope is required', async () => {
    const { scope: _, ...without } = form;
    const reply = await tokenRequest(stack, without);
    expect(reply.status).toBe(400);
  });

  it('[5 rule 3][5 rule 2][7.4 token endpoint errors] a scope not granted, unprefixed, mis-cased, comma-separated, misspelled, clients.*, quotes.* or products.delete is invalid_scope', async () => {
    const writer = await createClient(['products.read']);
    const base = {
      grant_type: 'client_credentials',
      client_id: writer.clientId,
      client_secret: writer.clientSecret,
    };
    for (const scope of [
      'crm-api/brands.read',
      'products.read',
      'crm-api/Products.read',
      'CRM-API/products.read',
      'crm-api/products.read,crm-api/brands.read',
      'crm-api/product.read',
      'crm-api/clients.read',
      'crm-api/quotes.read',
      'crm-api/products.delete',
      'crm/products.read',
    ]) {
      await refused({ ...base, scope }, 'invalid_scope');
    }
    expect((await tokenRequest(stack, { ...base, scope: 'crm-api/products.read' })).status).toBe(200);
  });
});

describe('2.5 and 5: the access token', () => {
  it('[2.5 JWT claims][5 rule 7] the token is a JWT with exp (Unix seconds), iat and a space-separated crm-api/ scope; exp - iat = expires_in', async () => {
    const reply = await tokenRequest(stack, form);
    const token = reply.body.access_token as string;
    expect(token.split('.')).toHaveLength(3);
    const claims = jwtPayload(token);
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(Number.isInteger(claims.iat)).toBe(true);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(60);
    expect((claims.exp as number) - (claims.iat as number)).toBe(reply.body.expires_in);
    for (const scope of String(claims.scope).split(' '))
      expect(scope).toMatch(/^crm-api\/[a-z]+\.(read|write)$/);
  });

  it('[2.5 expires_in][8 Access-token lifetime][9 token lifetime] an older client gets 86400 s, a newer one 3600 s: expires_in tells which', async () => {
    const older = await createClient(['products.read']);
    await makeOlderClient(stack, older.clientId);
    const reply = await tokenRequest(stack, {
      grant_type: 'client_credentials',
      client_id: older.clientId,
      client_secret: older.clientSecret,
      scope: 'crm-api/products.read',
    });
    expect(reply.body.expires_in).toBe(86_400);
    const claims = jwtPayload(reply.body.access_token as string);
    expect((claims.exp as number) - (claims.iat as number)).toBe(86_400);
    expect((await call('/products/search?size=1', { token: reply.body.access_token as string })).status).toBe(
      200,
    );
    expect((await tokenRequest(stack, form)).body.expires_in).toBe(3600);
  });

  it('[5 rule 7][7.4 401] through the SDK: one token is reused across calls; a token the API refuses (401) is replaced and the call retried once', async () => {
    const refreshes: string[] = [];
    // Both scopes named: one token serves every call (left out, the SDK asks one per resource).
    const reusing = sdkClient(stack, client, {
      scopes: ['products.read', 'brands.read'],
      hooks: { onTokenRefresh: (event) => refreshes.push(event.reason) },
    });
    try {
      for (let n = 0; n < 5; n += 1) await reusing.products.search({ size: 1 });
      await reusing.brands.list();
      expect(refreshes).toEqual(['cold']);
    } finally {
      await reusing.close();
    }
    // A shared token store holding a token the API refuses (expired, or signed by a key rotated away).
    const [header, payload] = (await stack.accessToken(client)).split('.');
    const refusedToken = `${header}.${payload}.${'A'.repeat(86)}`;
    expect((await call('/products/search?size=1', { token: refusedToken })).status).toBe(401);
    const tokenStore = createMemoryTokenStore();
    const key = `${new URL(stack.authUrl).origin}|${client.clientId}|crm-api/products.read crm-api/brands.read`;
    await tokenStore.set(key, {
      accessToken: refusedToken,
      expiresAt: Date.now() + 3_000_000,
      lifetimeSeconds: 3600,
    });
    const requests: string[] = [];
    const retrying = sdkClient(stack, client, {
      scopes: ['products.read', 'brands.read'],
      tokenStore,
      hooks: {
        onTokenRefresh: (event) => refreshes.push(event.reason),
        onResponse: (event) => {
          if (event.url.startsWith(stack.baseUrl)) requests.push(`${event.status}`);
        },
      },
    });
    try {
      const page = await retrying.products.search({ size: 1 });
      expect(page.data).toHaveLength(1);
      expect(refreshes).toEqual(['cold', 'rejected']);
      expect(requests).toEqual(['401', '200']);
      expect((await tokenStore.get(key))?.accessToken).not.toBe(refusedToken);
    } finally {
      await retrying.close();
    }
  });
});
