import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;

// Tokens signed with the token server's real active key but of the wrong kind: the API must tell
// access tokens and ID tokens apart by header and audience, never by signature alone (decisions: Identity).
async function signWithServerKey(header: Record<string, string>, claims: Record<string, unknown>) {
  const file = JSON.parse(await readFile(join(stack.dataDir, 'keys', 'signing-keys.json'), 'utf8')) as {
    keys: { kid: string; status: string; privateJwk: Record<string, string> }[];
  };
  const active = file.keys.find((key) => key.status === 'active');
  if (active === undefined) throw new Error('no active key');
  const key = await importJWK({ ...active.privateJwk, alg: 'ES256' }, 'ES256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: active.kid, ...header })
    .setIssuer(stack.auth.url)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

beforeAll(async () => {
  stack = await startStack({ demoProducts: 5 });
});
afterAll(() => stack?.stop());

describe('token types are never confused (spec 7.1: wrong-type token → 401)', () => {
  it('refuses an at+jwt whose audience is the admin client', async () => {
    const token = await signWithServerKey(
      { typ: 'at+jwt' },
      { aud: 'catalog-admin', sub: 'x', client_id: 'x', scope: 'crm-api/products.read', groups: ['admin'] },
    );
    expect((await stack.call('/oauth/clients', { token })).status).toBe(401);
  });

  it('refuses a token without the at+jwt type whose audience is the API (an access token posing as an ID token)', async () => {
    const token = await signWithServerKey(
      { typ: 'JWT' },
      { aud: 'crm-api', sub: 'x', client_id: 'x', scope: 'crm-api/products.read', groups: ['admin'] },
    );
    expect((await stack.call('/products/search', { token })).status).toBe(401);
    expect((await stack.call('/oauth/clients', { token })).status).toBe(401);
  });

  it('refuses an ID token that names both audiences', async () => {
    const token = await signWithServerKey(
      {},
      { aud: ['catalog-admin', 'crm-api'], sub: 'x', groups: ['admin'] },
    );
    expect((await stack.call('/oauth/clients', { token })).status).toBe(401);
  });

  it('refuses a token from another issuer signed with the right key', async () => {
    const token = await new SignJWT({ client_id: 'x', scope: 'crm-api/products.read' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setIssuer('https://evil.example')
      .setAudience('crm-api')
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(
        await importJWK(
          {
            kty: 'EC',
            crv: 'P-256',
            x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
            y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
            d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
          },
          'ES256',
        ),
      );
    expect((await stack.call('/products/search', { token })).status).toBe(401);
  });
});

describe('usageCount survives a graceful stop (spec 2.4)', () => {
  it('writes the batched counts when the API stops on SIGTERM', async () => {
    const local = await startStack({ env: { USAGE_FLUSH_MS: '0' } });
    try {
      const { clientId, token } = await local.m2mToken(['brands.read']);
      for (let i = 0; i < 7; i += 1) expect((await local.call('/brands', { token })).status).toBe(200);
      expect((await local.store.clients.get(clientId))?.usageCount).toBe(0);
      expect(await local.api.stop()).toBe(0);
      expect((await local.store.clients.get(clientId))?.usageCount).toBe(7);
    } finally {
      await local.stop();
    }
  });
});
