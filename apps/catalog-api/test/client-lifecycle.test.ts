import { requestAccessToken } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

interface Client {
  clientId: string;
  clientName: string;
  scopes: string[];
  status: string;
  channel: string | null;
  expiresAt: string | null;
  usageCount: number;
  lastUsedAt: string | null;
  clientSecret?: string;
  tokenEndpoint?: string;
  warning?: string;
}

let stack: Stack;
let admin: string;

const create = (body: unknown) =>
  stack.call<Client & { errors?: { field: string; message: string }[]; message: string; error?: string }>(
    '/oauth/clients',
    { method: 'POST', token: admin, body, operation: 'createM2MClient' },
  );

beforeAll(async () => {
  stack = await startStack({ demoProducts: 20 });
  admin = await stack.idToken(['admin']);
});
afterAll(() => stack?.stop());

describe('POST /oauth/clients (spec 4.2)', () => {
  it('creates an active client with a 26-character id and returns the secret once with tokenEndpoint and warning', async () => {
    const reply = await create({
      clientName: 'Shop sync',
      description: 'Nightly',
      scopes: ['products.read'],
    });
    expect(reply.status).toBe(201);
    expect(reply.body.clientId).toMatch(/^[a-zA-Z0-9]{26}$/);
    expect(reply.body.status).toBe('active');
    expect(reply.body.clientSecret).toBeTypeOf('string');
    expect(reply.body.tokenEndpoint).toBe(`${stack.auth.url}/oauth2/token`);
    expect(reply.body.warning).toBeTypeOf('string');
    const listed = await stack.call<{ clients: Client[] }>('/oauth/clients', {
      token: admin,
      operation: 'listM2MClients',
    });
    const again = listed.body.clients.find((c) => c.clientId === reply.body.clientId);
    expect(again).toBeDefined();
    expect(again).not.toHaveProperty('clientSecret');
  });

  it('gives a secret that obtains a 3600-second token from the token endpoint (spec 2.5)', async () => {
    const reply = await create({ clientName: 'Token check', scopes: ['products.read', 'brands.read'] });
    const issued = await requestAccessToken({
      authUrl: stack.auth.url,
      ca: stack.ca,
      clientId: reply.body.clientId,
      clientSecret: reply.body.clientSecret ?? '',
      scopes: ['brands.read'],
    });
    expect(issued.status, issued.body).toBe(200);
    expect(JSON.parse(issued.body)).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    // And the token itself says so: it expires 3600 s after it was issued.
    const claims = JSON.parse(Buffer.from(issued.token?.split('.')[1] ?? '', 'base64url').toString('utf8'));
    expect(claims.exp - claims.iat).toBe(3600);
    expect((await stack.call('/brands', { token: issued.token ?? '' })).status).toBe(200);
  });

  it('refuses a clientName shorter than 3 characters with INVALID_PARAMETER and the observed message (spec 7.3)', async () => {
    const reply = await create({ clientName: 'ab', scopes: ['products.read'] });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('INVALID_PARAMETER');
    expect(reply.body.message).toMatch(/client name must be at least 3 characters long/i);
    expect(reply.body.errors).toEqual([
      { field: 'clientName', message: expect.stringMatching(/at least 3/) },
    ]);
  });

  it('names the invalid scope for clients.*, quotes.* and products.delete (spec 5.3, 7.3)', async () => {
    for (const scope of [
      'clients.read',
      'quotes.write',
      'products.delete',
      'Products.read',
      'crm-api/products.read',
    ]) {
      const reply = await create({ clientName: 'Bad scope', scopes: [scope] });
      expect(reply.status, scope).toBe(400);
      expect(reply.body.message).toContain(scope);
      expect(reply.body.errors?.[0]?.field).toBe('scopes');
    }
  });

  it('lists one errors entry per invalid field', async () => {
    const reply = await create({
      clientName: 'a!',
      description: 'x'.repeat(501),
      scopes: [],
      expiresInDays: 366,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.map((e) => e.field).sort()).toEqual([
      'clientName',
      'description',
      'expiresInDays',
      'scopes',
    ]);
  });

  it('sets expiresAt expiresInDays days ahead', async () => {
    const before = Date.now();
    const reply = await create({ clientName: 'Expiring', scopes: ['products.read'], expiresInDays: 30 });
    const expiresAt = Date.parse(reply.body.expiresAt ?? '');
    expect(expiresAt - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(expiresAt - before).toBeLessThan(30 * 86_400_000 + 60_000);
  });
});

describe('PUT /oauth/clients/{clientId} (spec 3, 4.2)', () => {
  it('renames and rescopes an active client', async () => {
    const created = await create({ clientName: 'Before', scopes: ['products.read'] });
    const reply = await stack.call<Client>(`/oauth/clients/${created.body.clientId}`, {
      method: 'PUT',
      token: admin,
      body: { clientName: 'After', scopes: ['brands.read'] },
      operation: 'updateM2MClient',
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ clientName: 'After', scopes: ['brands.read'] });
  });

  it('binds to a registered web channel and unbinds with null', async () => {
    const created = await create({ clientName: 'Channel', scopes: ['products.read'] });
    const [channel] = await stack.store.webChannels.list();
    const path = `/oauth/clients/${created.body.clientId}`;
    const bound = await stack.call<Client>(path, {
      method: 'PUT',
      token: admin,
      body: { channel: channel?.slug },
    });
    expect(bound.body.channel).toBe(channel?.slug);
    const unbound = await stack.call<Client>(path, { method: 'PUT', token: admin, body: { channel: null } });
    expect(unbound.body.channel).toBeNull();
  });

  it('refuses a channel that is not in the web-channel registry with an errors entry for channel', async () => {
    const created = await create({ clientName: 'Channel', scopes: ['products.read'] });
    const reply = await stack.call<{ errors: { field: string }[] }>(
      `/oauth/clients/${created.body.clientId}`,
      {
        method: 'PUT',
        token: admin,
        body: { channel: 'no-such-channel' },
        operation: 'updateM2MClient',
      },
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0]?.field).toBe('channel');
  });

  it('refuses to take every scope away (at least one, as on create), by PUT and by PATCH, and keeps the scopes', async () => {
    const created = await create({ clientName: 'Scoped', scopes: ['products.read'] });
    const path = `/oauth/clients/${created.body.clientId}`;
    for (const [method, contentType] of [
      ['PUT', 'application/json'],
      ['PATCH', 'application/merge-patch+json'],
    ] as const) {
      const reply = await stack.call<{ error: string; errors: { field: string; message: string }[] }>(path, {
        method,
        token: admin,
        headers: { 'Content-Type': contentType },
        body: { scopes: [] },
      });
      expect(reply.status, method).toBe(400);
      expect(reply.body.error).toBe('INVALID_PARAMETER');
      expect(reply.body.errors[0]?.field).toBe('scopes');
    }
    expect((await stack.store.clients.get(created.body.clientId))?.scopes).toEqual(['products.read']);
  });

  it('refuses an empty body (at least one field)', async () => {
    const created = await create({ clientName: 'Empty', scopes: ['products.read'] });
    const reply = await stack.call(`/oauth/clients/${created.body.clientId}`, {
      method: 'PUT',
      token: admin,
      body: {},
    });
    expect(reply.status).toBe(400);
  });

  it('answers 404 for an unknown client', async () => {
    const reply = await stack.call(`/oauth/clients/${'A'.repeat(26)}`, {
      method: 'PUT',
      token: admin,
      body: { clientName: 'Nobody' },
      operation: 'updateM2MClient',
    });
    expect(reply.status).toBe(404);
  });
});

describe('DELETE /oauth/clients/{clientId} and revocation (spec 3, 5.8)', () => {
  it('revokes with the documented body, blocks new tokens and rejects existing ones from the next request', async () => {
    const created = await create({ clientName: 'Revoked soon', scopes: ['products.read'] });
    const { clientId, clientSecret } = created.body;
    const token = await stack.accessToken(clientId, clientSecret ?? '', ['products.read']);
    expect((await stack.call('/products/search?size=1', { token })).status).toBe(200);

    const reply = await stack.call<Record<string, unknown>>(`/oauth/clients/${clientId}`, {
      method: 'DELETE',
      token: admin,
      operation: 'revokeM2MClient',
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual([
      'clientId',
      'clientName',
      'message',
      'note',
      'revokedAt',
      'revokedBy',
    ]);

    const next = await stack.call('/products/search?size=1', { token });
    expect(next.status).toBe(403);
    expect(next.body).toEqual({ message: 'Forbidden' });
  });

  it('refuses to update a revoked client (the caller must create a new one)', async () => {
    const created = await create({ clientName: 'Frozen', scopes: ['products.read'] });
    const path = `/oauth/clients/${created.body.clientId}`;
    await stack.call(path, { method: 'DELETE', token: admin });
    const reply = await stack.call(path, { method: 'PUT', token: admin, body: { clientName: 'Thawed' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'INVALID_PARAMETER' });
  });

  it('lists revoked clients only with status=revoked or all; active is the default', async () => {
    const created = await create({ clientName: 'Listed', scopes: ['products.read'] });
    await stack.call(`/oauth/clients/${created.body.clientId}`, { method: 'DELETE', token: admin });
    const ids = async (query: string) =>
      (
        await stack.call<{ clients: Client[]; count: number }>(`/oauth/clients${query}`, { token: admin })
      ).body.clients.map((c) => c.clientId);
    expect(await ids('')).not.toContain(created.body.clientId);
    expect(await ids('?status=revoked')).toContain(created.body.clientId);
    expect(await ids('?status=all')).toContain(created.body.clientId);
  });

  it('refuses the tokens of a client past expiresAt with 403 (spec 3, rule 2)', async () => {
    const { client, secret } = await stack.client({ scopes: ['products.read'] });
    const token = await stack.accessToken(client.clientId, secret, ['products.read']);
    const db = await import('node:sqlite');
    const raw = new db.DatabaseSync(`${stack.dataDir}/catalog.sqlite`);
    raw
      .prepare('UPDATE m2m_clients SET expires_at = ? WHERE client_id = ?')
      .run(Date.parse('2000-01-01T00:00:00.000Z'), client.clientId);
    raw.close();
    expect((await stack.call('/products/search?size=1', { token })).status).toBe(403);
  });
});

describe('POST /oauth/clients/{clientId}/rotate-secret (spec 3, rule 3)', () => {
  it('does not rotate: it returns instructions and a console URL', async () => {
    const created = await create({ clientName: 'Rotation', scopes: ['products.read'] });
    const reply = await stack.call<{ message: string; instructions: string[]; consoleUrl: string }>(
      `/oauth/clients/${created.body.clientId}/rotate-secret`,
      { method: 'POST', token: admin, operation: 'getSecretRotationInstructions' },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.instructions.length).toBeGreaterThan(0);
    expect(reply.body.consoleUrl).toBe(`${stack.api.url}/console/clients`);
    const token = await stack.accessToken(created.body.clientId, created.body.clientSecret ?? '', [
      'products.read',
    ]);
    expect(token).toBeTypeOf('string');
  });
});

describe('usageCount (spec 2.4)', () => {
  it('counts every API call of the client', async () => {
    const created = await create({ clientName: 'Counted', scopes: ['products.read'] });
    const token = await stack.accessToken(created.body.clientId, created.body.clientSecret ?? '', [
      'products.read',
    ]);
    for (let i = 0; i < 5; i += 1) await stack.call('/products/search?size=1', { token });
    // Counts are written in batches (every 100 ms here); wait for the batch, not a fixed time (the
    // bound, 200 batches, only turns a count that never comes into a failure).
    let client = await stack.store.clients.get(created.body.clientId);
    for (let waited = 0; client?.usageCount !== 5 && waited < 20_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      client = await stack.store.clients.get(created.body.clientId);
    }
    expect(client?.usageCount).toBe(5);
    expect(client?.lastUsedAt).not.toBeNull();
  });
});
