// Spec part 4.2 and the M2M client record of 2.4 (with the client limits of part 8): the admin routes
// over the wire, with an administrator's ID token from the operator CLI's real login flow.
import type { M2MClient, M2MClientCreated, M2MClientList } from '@catalog/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { type Call, contractCall, tokenRequest } from './support/contract.ts';
import { adminToken, createM2MClient, nonAdminIdToken } from './support/people.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let staff: string;
let m2m: string;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const CLIENT_ID = /^[a-zA-Z0-9]{26}$/;
const CREATE_ONLY = ['clientSecret', 'tokenEndpoint', 'warning'];

const create = (body: Record<string, unknown>) =>
  call('/oauth/clients', { method: 'POST', token: admin, body });
const update = (clientId: string, body: unknown) =>
  call(`/oauth/clients/${clientId}`, { method: 'PUT', token: admin, body });
const list = async (status?: string) => {
  const reply = await call(`/oauth/clients${status === undefined ? '' : `?status=${status}`}`, {
    token: admin,
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as M2MClientList;
};
const valid = (extra: Record<string, unknown> = {}) => ({
  clientName: `client ${Date.now()}`,
  scopes: ['products.read'],
  ...extra,
});
const expect400 = async (
  promise: Promise<{ status: number; body: unknown; text: string }>,
  label: string,
) => {
  const reply = await promise;
  expect(reply.status, `${label}: ${reply.text}`).toBe(400);
  expect(reply.body, label).toMatchObject({ error: 'INVALID_PARAMETER' });
  return reply.body as { message: string; errors?: { field: string; message: string }[] };
};

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 50, env: { USAGE_FLUSH_MS: '50' } });
  call = contractCall(stack);
  [admin, staff] = await Promise.all([adminToken(stack), nonAdminIdToken(stack)]);
  const every = await createM2MClient(stack, [
    'products.read',
    'products.write',
    'brands.read',
    'brands.write',
  ]);
  m2m = await stack.accessToken(every, ['products.read', 'products.write', 'brands.read', 'brands.write']);
});
afterAll(() => stack?.stop());

describe('4.2 who may call the client-management routes', () => {
  it('[4.2 caller][5 rule 5][7.1 403][7.3 FORBIDDEN][7.3 observed messages] an M2M token (every scope) and a non-admin ID token get 403 "admin role required"; no token 401', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/oauth/clients'],
      ['POST', '/oauth/clients', valid()],
      ['PUT', `/oauth/clients/${'A'.repeat(26)}`, { clientName: 'renamed' }],
      ['DELETE', `/oauth/clients/${'A'.repeat(26)}`],
      ['POST', `/oauth/clients/${'A'.repeat(26)}/rotate-secret`],
    ];
    for (const [method, path, body] of routes) {
      for (const token of [m2m, staff]) {
        const reply = await call(path, { method, token, ...(body === undefined ? {} : { body }) });
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect((reply.body as { message: string }).message).toMatch(/admin role.*required/i);
        if ('error' in (reply.body as object)) expect(reply.body).toMatchObject({ error: 'FORBIDDEN' });
      }
      const anonymous = await call(path, { method, ...(body === undefined ? {} : { body }) });
      expect(anonymous.status).toBe(401);
    }
  });
});

describe('4.2 POST /oauth/clients', () => {
  it('[4.2 POST /oauth/clients response][7.1 201][3 (none)→active][2.4 clientSecret][2.4 tokenEndpoint][2.4 warning] 201: an active client plus clientSecret, tokenEndpoint and warning', async () => {
    const reply = await create(
      valid({ description: 'For the web shop', scopes: ['products.read', 'brands.read'] }),
    );
    expect(reply.status).toBe(201);
    const created = reply.body as M2MClientCreated;
    expect(created).toMatchObject({
      status: 'active',
      description: 'For the web shop',
      scopes: ['products.read', 'brands.read'],
      lastUsedAt: null,
      usageCount: 0,
      revokedAt: null,
      expiresAt: null,
    });
    expect(created.clientSecret.length).toBeGreaterThan(20);
    expect(created.tokenEndpoint).toBe(`${stack.authUrl}/oauth2/token`);
    expect(typeof created.warning).toBe('string');
    const token = await tokenRequest(stack, {
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
      scope: 'crm-api/products.read',
    });
    expect(token.status).toBe(200);
  });

  it('[4.2 POST /oauth/clients clientName][2.4 clientName][8 clientName][7.3 INVALID_PARAMETER][7.3 observed messages] clientName is required, 3-100 characters of letters, digits, hyphens, underscores; its whitespace narrowed to single spaces between words', async () => {
    const short = await expect400(create(valid({ clientName: 'ab' })), 'two characters');
    expect(short.message).toMatch(/at least 3 characters long/i);
    for (const clientName of ['a'.repeat(101), 'bad!name', 'semi;colon', 'ünïcode name', '', 42]) {
      await expect400(create(valid({ clientName })), `clientName ${JSON.stringify(clientName)}`);
    }
    // Spec 2.4's \s would let names that look alike differ (the contract's ClientName says why).
    for (const clientName of [
      '   ',
      ' shop',
      'shop ',
      'web  shop',
      'web\tshop',
      'web\nshop',
      'web\u00a0shop',
      'web\u2028shop',
      '\ufeffshop',
    ]) {
      await expect400(create(valid({ clientName })), `clientName ${JSON.stringify(clientName)}`);
    }
    await expect400(create({ scopes: ['products.read'] }), 'no clientName');
    for (const clientName of ['abc', 'a'.repeat(100), 'Web shop - EU_1 sync']) {
      const reply = await create(valid({ clientName }));
      expect(reply.status, clientName).toBe(201);
      expect((reply.body as M2MClient).clientName).toBe(clientName);
    }
  });

  it('[4.2 POST /oauth/clients description][2.4 description][8 description] description is optional and at most 500 characters', async () => {
    expect((await create(valid({ description: 'd'.repeat(500) }))).status).toBe(201);
    await expect400(create(valid({ description: 'd'.repeat(501) })), '501 characters');
    const without = await create(valid());
    expect(without.status).toBe(201);
  });

  it('[4.2 POST /oauth/clients scopes][2.4 scopes][8 scopes][5 rule 3][7.3 observed messages] scopes: at least one of the four grantable values, unprefixed; anything else is a validation error naming it', async () => {
    await expect400(create(valid({ scopes: [] })), 'empty scopes');
    await expect400(create({ clientName: 'no scopes' }), 'missing scopes');
    for (const scope of [
      'clients.read',
      'quotes.read',
      'products.delete',
      'Products.read',
      'crm-api/products.read',
      'products.read,brands.read',
      'products.read brands.read',
      'brands.Write',
    ]) {
      const body = await expect400(create(valid({ scopes: ['products.read', scope] })), scope);
      expect(body.message).toContain(scope);
    }
    const all = await create(
      valid({ scopes: ['products.read', 'products.write', 'brands.read', 'brands.write'] }),
    );
    expect(all.status).toBe(201);
    expect((all.body as M2MClient).scopes.sort()).toEqual([
      'brands.read',
      'brands.write',
      'products.read',
      'products.write',
    ]);
  });

  it('[4.2 POST /oauth/clients expiresInDays][8 expiresInDays][2.4 expiresAt] expiresInDays is 1-365 days from creation; omitted means no expiry', async () => {
    for (const expiresInDays of [0, 366, -1, 1.5, '30'])
      await expect400(create(valid({ expiresInDays })), `${expiresInDays}`);
    for (const days of [1, 365]) {
      const before = Date.now();
      const reply = await create(valid({ expiresInDays: days }));
      expect(reply.status).toBe(201);
      const expiresAt = Date.parse((reply.body as M2MClient).expiresAt as string);
      expect(expiresAt).toBeGreaterThanOrEqual(before + days * 86_400_000 - 1_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + days * 86_400_000 + 1_000);
    }
    expect(((await create(valid())).body as M2MClient).expiresAt).toBeNull();
  });

  it('[7.2 errors][4.2 POST /oauth/clients response] validation failures list one errors entry per invalid field', async () => {
    const body = await expect400(
      create({ clientName: 'x', description: 'd'.repeat(501), scopes: ['quotes.read'], expiresInDays: 0 }),
      'four invalid fields',
    );
    const fields = (body.errors ?? []).map((entry) => entry.field.split('.')[0]);
    expect(new Set(fields)).toEqual(new Set(['clientName', 'description', 'scopes', 'expiresInDays']));
  });
});

describe('2.4 the client record', () => {
  it('[2.4 clientId][2.4 status][2.4 createdAt][2.4 createdBy][5 rule 6] clientId is 26 alphanumerics; status, createdAt and createdBy {userId, userName}', async () => {
    const before = Date.now();
    const created = (await create(valid())).body as M2MClient;
    expect(created.clientId).toMatch(CLIENT_ID);
    expect(created.status).toBe('active');
    expect(created.createdAt).toMatch(ISO);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Object.keys(created.createdBy).sort()).toEqual(['userId', 'userName']);
    expect(created.createdBy.userId.length).toBeGreaterThan(0);
    expect(created.createdBy.userName.length).toBeGreaterThan(0);
    const listed = (await list()).clients.find((client) => client.clientId === created.clientId);
    expect(listed).toMatchObject({ clientId: created.clientId, createdBy: created.createdBy });
  });

  it('[2.4 lastUsedAt][2.4 usageCount] lastUsedAt is the time of the last token exchange; usageCount counts API calls', async () => {
    const client = await createM2MClient(stack, ['products.read']);
    const fresh = (await list()).clients.find((entry) => entry.clientId === client.clientId);
    expect(fresh).toMatchObject({ lastUsedAt: null, usageCount: 0 });
    const before = Date.now();
    const token = await stack.accessToken(client, ['products.read']);
    const exchanged = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // API calls come well after the exchange
    for (let n = 0; n < 3; n += 1)
      expect((await call('/products/search?size=1', { token })).status).toBe(200);
    let used: M2MClient | undefined;
    for (let wait = 0; wait < 40; wait += 1) {
      used = (await list()).clients.find((entry) => entry.clientId === client.clientId);
      if (used?.usageCount === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(used?.usageCount).toBe(3);
    const lastUsed = Date.parse(used?.lastUsedAt as string);
    expect(lastUsed).toBeGreaterThanOrEqual(before - 1_000);
    expect(lastUsed, 'the exchange, not the later API calls').toBeLessThanOrEqual(exchanged + 500);
  });

  it('[2.4 revokedAt][2.4 revokedBy] revokedAt is null while active; after revocation both are set', async () => {
    const created = (await create(valid())).body as M2MClient;
    expect(created.revokedAt).toBeNull();
    expect(created).not.toHaveProperty('revokedBy');
    const before = Date.now();
    expect(
      (await call(`/oauth/clients/${created.clientId}`, { method: 'DELETE', token: admin })).status,
    ).toBe(200);
    const revoked = (await list('revoked')).clients.find((entry) => entry.clientId === created.clientId);
    expect(revoked?.status).toBe('revoked');
    expect(Date.parse(revoked?.revokedAt as string)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Object.keys(revoked?.revokedBy ?? {}).sort()).toEqual(['userId', 'userName']);
  });

  it('[2.4 clientSecret][5 rule 6] the secret is never retrievable after the create response', async () => {
    const created = (await create(valid())).body as M2MClientCreated;
    const replies = [
      await call('/oauth/clients?status=all', { token: admin }),
      await update(created.clientId, { description: 'touched' }),
      await call(`/oauth/clients/${created.clientId}/rotate-secret`, { method: 'POST', token: admin }),
    ];
    for (const reply of replies) {
      expect(reply.text).not.toContain(created.clientSecret);
      for (const key of CREATE_ONLY) expect(reply.text).not.toContain(`"${key}"`);
    }
  });
});

describe('4.2 GET /oauth/clients', () => {
  it('[4.2 GET /oauth/clients][2.4 status][7.3 INVALID_PARAMETER] status active (default), revoked or all; {clients, count} without create-only fields', async () => {
    const active = (await create(valid())).body as M2MClient;
    const gone = (await create(valid())).body as M2MClient;
    await call(`/oauth/clients/${gone.clientId}`, { method: 'DELETE', token: admin });
    const [byDefault, onlyActive, revoked, all] = await Promise.all([
      list(),
      list('active'),
      list('revoked'),
      list('all'),
    ]);
    const ids = (page: M2MClientList) => page.clients.map((client) => client.clientId);
    expect(ids(byDefault).sort()).toEqual(ids(onlyActive).sort());
    expect(ids(byDefault)).toContain(active.clientId);
    expect(ids(byDefault)).not.toContain(gone.clientId);
    expect(ids(revoked)).toContain(gone.clientId);
    expect(ids(revoked)).not.toContain(active.clientId);
    expect(ids(all).sort()).toEqual([...ids(onlyActive), ...ids(revoked)].sort());
    for (const page of [byDefault, revoked, all]) {
      expect(page.count).toBe(page.clients.length);
      for (const client of page.clients)
        for (const key of CREATE_ONLY) expect(client).not.toHaveProperty(key);
    }
    for (const client of revoked.clients) expect(client.status).toBe('revoked');
    await expect400(call('/oauth/clients?status=deleted', { token: admin }), 'status=deleted');
  });
});

describe('4.2 PUT /oauth/clients/{clientId}', () => {
  it('[4.2 PUT /oauth/clients/{clientId} clientName][8 clientName] clientName follows the create rules', async () => {
    const { clientId } = (await create(valid())).body as M2MClient;
    const renamed = await update(clientId, { clientName: 'Renamed client_2' });
    expect(renamed.status).toBe(200);
    expect((renamed.body as M2MClient).clientName).toBe('Renamed client_2');
    for (const clientName of ['ab', 'a'.repeat(101), 'bad!name'])
      await expect400(update(clientId, { clientName }), `clientName ${clientName}`);
  });

  it('[4.2 PUT /oauth/clients/{clientId} description][8 description] description is at most 500 characters', async () => {
    const { clientId } = (await create(valid())).body as M2MClient;
    const ok = await update(clientId, { description: 'd'.repeat(500) });
    expect(ok.status).toBe(200);
    expect((ok.body as M2MClient).description).toBe('d'.repeat(500));
    await expect400(update(clientId, { description: 'd'.repeat(501) }), '501 characters');
  });

  it('[4.2 PUT /oauth/clients/{clientId} scopes] scopes take the create values and re-issue the allowed scopes', async () => {
    const created = (await create(valid({ scopes: ['products.read'] }))).body as M2MClientCreated;
    const rescoped = await update(created.clientId, { scopes: ['brands.read'] });
    expect(rescoped.status).toBe(200);
    expect((rescoped.body as M2MClient).scopes).toEqual(['brands.read']);
    for (const scope of ['quotes.read', 'crm-api/brands.read', 'clients.write'])
      await expect400(update(created.clientId, { scopes: [scope] }), scope);
    const form = {
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
    };
    expect((await tokenRequest(stack, { ...form, scope: 'crm-api/brands.read' })).status).toBe(200);
    const refused = await tokenRequest(stack, { ...form, scope: 'crm-api/products.read' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('[4.2 PUT /oauth/clients/{clientId} channel][2.4 channel] channel must be a registered kebab-case slug; null unbinds', async () => {
    const { clientId } = (await create(valid())).body as M2MClient;
    const fresh = (await list()).clients.find((client) => client.clientId === clientId) as M2MClient;
    expect(fresh.channel ?? null).toBeNull();
    const bound = await update(clientId, { channel: 'outlet' });
    expect(bound.status).toBe(200);
    expect((bound.body as M2MClient).channel).toBe('outlet');
    for (const channel of ['no-such-channel', 'Main Site', 'main_site', 42])
      await expect400(update(clientId, { channel }), `channel ${channel}`);
    const unbound = await update(clientId, { channel: null });
    expect(unbound.status).toBe(200);
    expect((unbound.body as M2MClient).channel ?? null).toBeNull();
  });

  it('[4.2 PUT /oauth/clients/{clientId}][7.1 404] at least one field; a malformed clientId is 400, an unknown one 404', async () => {
    const { clientId } = (await create(valid())).body as M2MClient;
    await expect400(update(clientId, {}), 'empty body');
    await expect400(update(clientId, { status: 'active' }), 'unknown field');
    await expect400(update('short', { clientName: 'valid name' }), 'malformed clientId');
    const unknown = await update('Z'.repeat(26), { clientName: 'valid name' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'NOT_FOUND' });
  });
});

describe('2.4 web channels', () => {
  it('[2.4 web channel record][4.1 /company-settings/web-channels] a client shows only the slug of its channel; the registry exists for administrators and is not an M2M route', async () => {
    const registry = await call('/company-settings/web-channels', { token: admin });
    expect(registry.status).toBe(200);
    const slugs = (registry.body as { channels: { slug: string }[] }).channels.map((channel) => channel.slug);
    expect(slugs).toContain('main-site');
    expect((await call('/company-settings/web-channels', { token: m2m })).status).toBe(403);
    const { clientId } = (await create(valid())).body as M2MClient;
    const bound = (await update(clientId, { channel: 'main-site' })).body as M2MClient;
    expect(bound.channel).toBe('main-site');
    const listed = (await list()).clients.find((client) => client.clientId === clientId);
    expect(listed?.channel).toBe('main-site');
  });
});

describe('4.2 DELETE and rotate-secret', () => {
  it('[4.2 DELETE /oauth/clients/{clientId}] 200 {message, clientId, clientName, revokedAt, revokedBy, note}; unknown 404; malformed 400', async () => {
    const created = (await create(valid({ clientName: 'to be revoked' }))).body as M2MClient;
    const reply = await call(`/oauth/clients/${created.clientId}`, { method: 'DELETE', token: admin });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ clientId: created.clientId, clientName: 'to be revoked' });
    const body = reply.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'clientId',
      'clientName',
      'message',
      'note',
      'revokedAt',
      'revokedBy',
    ]);
    expect((await call(`/oauth/clients/${'Q'.repeat(26)}`, { method: 'DELETE', token: admin })).status).toBe(
      404,
    );
    expect((await call('/oauth/clients/not-26', { method: 'DELETE', token: admin })).status).toBe(400);
  });

  it('[4.2 POST /oauth/clients/{clientId}/rotate-secret][3 rule 3] no body, nothing rotated: {message, instructions[], consoleUrl}; the old secret still works', async () => {
    const created = (await create(valid())).body as M2MClientCreated;
    const reply = await call(`/oauth/clients/${created.clientId}/rotate-secret`, {
      method: 'POST',
      token: admin,
    });
    expect(reply.status).toBe(200);
    const body = reply.body as { message: string; instructions: string[]; consoleUrl: string };
    expect(Object.keys(body).sort()).toEqual(['consoleUrl', 'instructions', 'message']);
    expect(body.instructions.length).toBeGreaterThan(0);
    expect(() => new URL(body.consoleUrl)).not.toThrow();
    const token = await tokenRequest(stack, {
      grant_type: 'client_credentials',
      client_id: created.clientId,
      client_secret: created.clientSecret,
      scope: 'crm-api/products.read',
    });
    expect(token.status).toBe(200);
  });
});
