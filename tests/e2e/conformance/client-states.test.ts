// Spec part 3: the M2M client's states and transitions, observed the way an integrator meets them (the
// SDK's typed errors, the token endpoint's answers) and an administrator drives them (the admin routes).
import type { M2MClient, M2MClientCreated, M2MClientList } from '@catalog/contracts';
import { ForbiddenError } from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { ageClientPastExpiry, renameClientsTable } from './support/aged-clients.ts';
import { type Call, contractCall, tokenRequest } from './support/contract.ts';
import { adminToken, sdkClient } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;

const createClient = async (
  scopes = ['products.read', 'brands.read'],
  extra: Record<string, unknown> = {},
) => {
  const reply = await call('/oauth/clients', {
    method: 'POST',
    token: admin,
    body: { clientName: `state client ${Date.now()}`, scopes, ...extra },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as M2MClientCreated;
};
const exchange = (client: M2MClientCreated, scope = 'crm-api/products.read') =>
  tokenRequest(stack, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    scope,
  });
const token = async (client: M2MClientCreated, scope?: string) => {
  const reply = await exchange(client, scope);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.access_token as string;
};
const revoke = (clientId: string) => call(`/oauth/clients/${clientId}`, { method: 'DELETE', token: admin });
const listed = async (clientId: string) =>
  ((await call('/oauth/clients?status=all', { token: admin })).body as M2MClientList).clients.find(
    (client) => client.clientId === clientId,
  );

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 50 });
  call = contractCall(stack);
  admin = await adminToken(stack);
});
afterAll(() => stack?.stop());

describe('3 transitions', () => {
  it('[3 (none)→active][5 rule 6] POST /oauth/clients by an admin creates an active client; the secret is returned once', async () => {
    const created = await createClient();
    expect(created.status).toBe('active');
    expect(typeof created.clientSecret).toBe('string');
    expect(created.clientId).toHaveLength(26);
    const again = await listed(created.clientId);
    expect(again?.status).toBe('active');
    expect(again).not.toHaveProperty('clientSecret');
  });

  it('[3 active→revoked][5 rule 8][8 Revocation][7.1 403] revocation: no new token at once; an existing token is refused (403) from the next request', async () => {
    const created = await createClient();
    const client = sdkClient(stack, created);
    try {
      await client.products.search({ size: 1 }); // the SDK holds a token now
      const raw = await token(created);
      expect((await call('/products/search?size=1', { token: raw })).status).toBe(200);
      expect((await revoke(created.clientId)).status).toBe(200);
      const [next, sdkNext, newToken] = await Promise.all([
        call('/products/search?size=1', { token: raw }),
        client.products.search({ size: 1 }).catch((error: unknown) => error),
        exchange(created),
      ]);
      expect(next.status).toBe(403);
      expect(sdkNext).toBeInstanceOf(ForbiddenError);
      expect((sdkNext as ForbiddenError).attempts).toBe(1);
      expect(newToken).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
      expect((await listed(created.clientId))?.status).toBe('revoked');
    } finally {
      await client.close();
    }
  });

  it('[3 active→active][4.2 PUT /oauth/clients/{clientId} scopes] an update changes name, description, scopes and channel; tokens already issued keep their original scopes', async () => {
    const created = await createClient(['products.read', 'brands.read']);
    const old = await token(created, 'crm-api/products.read crm-api/brands.read');
    const reply = await call(`/oauth/clients/${created.clientId}`, {
      method: 'PUT',
      token: admin,
      body: {
        clientName: 'Renamed state client',
        description: 'now',
        scopes: ['products.read'],
        channel: 'outlet',
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      status: 'active',
      clientName: 'Renamed state client',
      description: 'now',
      scopes: ['products.read'],
      channel: 'outlet',
    });
    expect((await call('/brands', { token: old })).status).toBe(200);
    expect(await exchange(created, 'crm-api/brands.read')).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });
    const fresh = await token(created, 'crm-api/products.read');
    expect((await call('/brands', { token: fresh })).status).toBe(403);
  });

  it('[3 revoked→revoked][3 rule 1][4.2 PUT /oauth/clients/{clientId}] an update of a revoked client is refused and it stays revoked; revocation cannot be undone', async () => {
    const created = await createClient();
    await revoke(created.clientId);
    for (const body of [
      { clientName: 'Back to life' },
      { scopes: ['products.read'] },
      { channel: null },
      { status: 'active' },
    ]) {
      const reply = await call(`/oauth/clients/${created.clientId}`, { method: 'PUT', token: admin, body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    const again = await revoke(created.clientId);
    expect(again.status).toBe(400);
    const state = (await listed(created.clientId)) as M2MClient;
    expect(state.status).toBe('revoked');
    expect(state.clientName).not.toBe('Back to life');
    expect(await exchange(created)).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    const replacement = await createClient();
    expect(replacement.clientId).not.toBe(created.clientId);
    expect((await exchange(replacement)).status).toBe(200);
  });

  it('[3 rule 2][5 rule 9] a client past expiresAt cannot obtain tokens, and its existing tokens stop working', async () => {
    const created = await createClient(['products.read'], { expiresInDays: 1 });
    const before = await token(created);
    await ageClientPastExpiry(stack, created.clientId);
    expect(await exchange(created)).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    expect((await call('/products/search?size=1', { token: before })).status).toBe(403);
  });

  it('[3 rule 3] secrets cannot be rotated through the API: rotate-secret returns instructions and the old secret keeps working', async () => {
    const created = await createClient();
    const reply = await call(`/oauth/clients/${created.clientId}/rotate-secret`, {
      method: 'POST',
      token: admin,
    });
    expect(reply.status).toBe(200);
    expect(reply.text).not.toMatch(/clientSecret/);
    expect((await exchange(created)).status).toBe(200);
    for (const body of [{ clientSecret: 'my-own-secret-value-123456' }]) {
      const put = await call(`/oauth/clients/${created.clientId}`, { method: 'PUT', token: admin, body });
      expect(put.status).toBe(400);
    }
    expect((await exchange(created)).status).toBe(200);
  });

  it("[3 revocation check unavailable][5 rule 8] while the revocation check cannot run, a revoked client's existing token is accepted; once it runs again, refused", async () => {
    const created = await createClient();
    const before = await token(created);
    await revoke(created.clientId);
    expect((await call('/products/search?size=1', { token: before })).status).toBe(403);
    // The table the check reads goes away (as an unreachable client store would); products stay readable.
    await renameClientsTable(stack, 'm2m_clients', 'm2m_clients_unreachable');
    try {
      const during = await call('/products/search?size=1', { token: before });
      expect(during.status).toBe(200);
    } finally {
      await renameClientsTable(stack, 'm2m_clients_unreachable', 'm2m_clients');
    }
    expect((await call('/products/search?size=1', { token: before })).status).toBe(403);
  });
});
