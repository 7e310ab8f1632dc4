import type { SearchPreview } from '@catalog/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientId } from '../src/domain/clients/generate-client-id.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let admin: string;
let channel: string;

beforeAll(async () => {
  stack = await startStack({ demoProducts: 120 });
  admin = await stack.idToken(['admin']);
  const [first] = await stack.store.webChannels.list();
  if (first === undefined) throw new Error('the demo catalogue has no web channel');
  channel = first.slug;
});
afterAll(() => stack?.stop());

const preview = (query: string, token: string | null = admin) =>
  stack.call<SearchPreview>(`/products/search-preview${query}`, {
    ...(token === null ? {} : { token }),
    operation: 'previewProductSearch',
  });

/** The `data` array of a search body exactly as sent, from its text. */
function dataText(text: string): string {
  const start = text.indexOf('"data":[');
  const end = text.indexOf('],"pagination":', start);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return text.slice(start, end + 1);
}

const storedClient = (overrides: {
  expiresAt?: string | null;
  scopes?: ('products.read' | 'brands.read')[];
}) =>
  stack.store.clients.create({
    clientId: generateClientId(),
    clientName: 'Preview subject',
    scopes: overrides.scopes ?? ['products.read'],
    createdBy: { userId: 'test', userName: 'test suite' },
    expiresAt: overrides.expiresAt ?? null,
    channel: null,
    secretHash: 'not used',
    tokenLifetimeSeconds: 3600,
  });

describe('GET /products/search-preview: a stored client (asClient)', () => {
  it("answers, byte for byte, the data a bound client's own token gets from GET /products/search", async () => {
    const { client, secret } = await stack.client({ scopes: ['products.read'], channel });
    const token = await stack.accessToken(client.clientId, secret, ['products.read']);
    for (const query of [
      'size=30',
      'size=25&fields=name,displayOnWeb,price&sort=price&order=desc',
      'q=drill',
    ]) {
      const own = await stack.call(`/products/search?${query}`, { token, operation: 'searchProducts' });
      const seen = await preview(`?asClient=${client.clientId}&${query}`);
      expect(own.status).toBe(200);
      expect(seen.status).toBe(200);
      expect(dataText(seen.text)).toBe(dataText(own.text));
      expect(seen.body.search?.pagination.total).toBe(
        (own.body as { pagination: { total: number } }).pagination.total,
      );
    }
  });

  it('names the stored client as subject and allows it with a reason naming its channel', async () => {
    const { client } = await stack.client({ scopes: ['products.read', 'brands.read'], channel });
    const reply = await preview(`?asClient=${client.clientId}&size=1`);
    expect(reply.body.subject).toEqual({
      clientId: client.clientId,
      clientName: client.clientName,
      status: 'active',
      scopes: ['products.read', 'brands.read'],
      channel,
    });
    expect(reply.body.access).toMatchObject({ allowed: true, status: 200 });
    expect(reply.body.access.reason).toContain(`channel ${channel}`);
  });

  it('gives an unbound client the stored displayOnWeb, as its token gets', async () => {
    const { client, secret } = await stack.client({ scopes: ['products.read'] });
    const token = await stack.accessToken(client.clientId, secret, ['products.read']);
    const own = await stack.call('/products/search?size=40&fields=displayOnWeb', { token });
    const seen = await preview(`?asClient=${client.clientId}&size=40&fields=displayOnWeb`);
    expect(dataText(seen.text)).toBe(dataText(own.text));
    expect(seen.body.access.reason).toContain('unbound');
  });

  it('refuses a revoked client: allowed false, status 403, search null', async () => {
    const { client } = await stack.client({ scopes: ['products.read'] });
    await stack.store.clients.revoke(client.clientId, { userId: 'test', userName: 'test suite' });
    const reply = await preview(`?asClient=${client.clientId}`);
    expect(reply.status).toBe(200);
    expect(reply.body.subject.status).toBe('revoked');
    expect(reply.body.access).toMatchObject({ allowed: false, status: 403 });
    expect(reply.body.access.reason).toMatch(/revoked/);
    expect(reply.body.search).toBeNull();
  });

  it('refuses a client without products.read: allowed false, status 403, search null', async () => {
    const { client } = await stack.client({ scopes: ['brands.read'] });
    const reply = await preview(`?asClient=${client.clientId}`);
    expect(reply.body.subject.status).toBe('active');
    expect(reply.body.access).toEqual({
      allowed: false,
      status: 403,
      reason:
        'This client does not hold products.read: its calls to GET /products/search are refused with 403.',
    });
    expect(reply.body.search).toBeNull();
  });

  it('reports an active client past expiresAt as expired and refused (spec 3, rule 2)', async () => {
    const client = await storedClient({ expiresAt: '2000-01-01T00:00:00.000Z' });
    const reply = await preview(`?asClient=${client.clientId}`);
    expect(reply.body.subject.status).toBe('expired');
    expect(reply.body.access).toMatchObject({ allowed: false, status: 403 });
    expect(reply.body.search).toBeNull();
  });

  it('answers 404 NOT_FOUND when asClient names no client', async () => {
    const reply = await preview(`?asClient=${'Z'.repeat(26)}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('refuses asClient together with channel or scopes with 400 VALIDATION_ERROR naming the field', async () => {
    const { client } = await stack.client({ scopes: ['products.read'] });
    const withChannel = await preview(`?asClient=${client.clientId}&channel=${channel}`);
    expect(withChannel.status).toBe(400);
    expect(withChannel.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'channel' } });
    const withScopes = await preview(`?asClient=${client.clientId}&scopes=products.read`);
    expect(withScopes.status).toBe(400);
    expect(withScopes.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'scopes' } });
  });

  it('refuses a malformed asClient with 400 VALIDATION_ERROR, never a 5xx', async () => {
    const reply = await preview('?asClient=../../etc');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });
});

describe('GET /products/search-preview: a hypothetical client (scopes, channel)', () => {
  it('defaults to an unbound client with products.read, active, without id or name', async () => {
    const reply = await preview('?size=3');
    expect(reply.status).toBe(200);
    expect(reply.body.subject).toEqual({
      clientId: null,
      clientName: null,
      status: 'active',
      scopes: ['products.read'],
      channel: null,
    });
    expect(reply.body.access).toMatchObject({ allowed: true, status: 200 });
    expect(reply.body.search?.data).toHaveLength(3);
  });

  it('answers what a client with those scopes bound to that channel gets from GET /products/search', async () => {
    const { token } = await stack.m2mToken(['products.read', 'brands.read'], { channel });
    const query = 'size=30&fields=name,displayOnWeb';
    const own = await stack.call(`/products/search?${query}`, { token });
    const seen = await preview(`?scopes=products.read,brands.read&channel=${channel}&${query}`);
    expect(seen.body.subject).toMatchObject({ scopes: ['products.read', 'brands.read'], channel });
    expect(dataText(seen.text)).toBe(dataText(own.text));
  });

  it('refuses a hypothetical client without products.read with status 403 and search null', async () => {
    const reply = await preview('?scopes=brands.read');
    expect(reply.body.access).toMatchObject({ allowed: false, status: 403 });
    expect(reply.body.search).toBeNull();
  });

  it('refuses a scope that cannot be granted with 400 VALIDATION_ERROR naming it', async () => {
    const reply = await preview('?scopes=products.read,orders.read');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'scopes' } });
    expect((reply.body as unknown as { message: string }).message).toContain('orders.read');
  });

  it('refuses a channel that is not in the web-channel registry with 400 VALIDATION_ERROR', async () => {
    const reply = await preview('?channel=no-such-channel');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'channel' } });
  });

  it("applies the search parameters' own validation (size over 100 → 400 VALIDATION_ERROR)", async () => {
    const reply = await preview('?size=101');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'size' } });
  });

  it('continues a page with its syncToken and the same subject', async () => {
    const first = await preview(`?channel=${channel}&size=5&sort=code`);
    const token = first.body.search?.syncToken;
    expect(token).toBeTypeOf('string');
    const next = await preview(
      `?channel=${channel}&size=5&sort=code&syncToken=${encodeURIComponent(token ?? '')}`,
    );
    expect(next.status).toBe(200);
    const ids = (reply: typeof first) => (reply.body.search?.data ?? []).map((p) => p.id);
    expect(ids(next)).not.toEqual(ids(first));
  });
});

describe('GET /products/search-preview: who may call it', () => {
  it('refuses an M2M token, whatever its scopes, with 403', async () => {
    const { token } = await stack.m2mToken(['products.read', 'products.write', 'brands.read']);
    expect((await preview('', token)).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await preview('', null)).status).toBe(401);
  });

  it('refuses an ID token without the admin group with 403', async () => {
    expect((await preview('', await stack.idToken(['staff']))).status).toBe(403);
  });

  it('records nothing in the audit trail (it is a read)', async () => {
    const before = await stack.call<{ events: unknown[] }>('/audit-events?limit=200', { token: admin });
    await preview('?size=1');
    const after = await stack.call<{ events: unknown[] }>('/audit-events?limit=200', { token: admin });
    expect(after.body.events.length).toBe(before.body.events.length);
  });
});
