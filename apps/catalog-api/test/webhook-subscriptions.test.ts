// The admin webhook routes (issue 31) through the real servers: subscriptions of an M2M client's
// endpoint, their one-time secret and its rotation, conditional edits, the delivery log and
// redelivery, the audit trail they leave, and who may call them.

import { type CatalogOperationId, validateResponse } from '@catalog/contracts';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { rawRequest } from '@catalog/server-runtime/testing';
import type { AuditEvent } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOverStore, startApiOverStore } from './support/api-over-store.ts';
import { type Stack, startStack } from './support/stack.ts';

interface Subscription {
  id: string;
  clientId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  state: string;
  disabledReason: string | null;
  failingSince: string | null;
  previousSecretExpiresAt: string | null;
  secret?: string;
}

interface ErrorReply {
  message: string;
  error?: string;
  details?: { field: string; reason: string };
}

const BASE = '/admin/webhook-subscriptions';
// Loopback: allowed by this stack's WEBHOOK_ALLOW_PRIVATE_NETWORKS=true; nothing listens there, and
// the delivery worker is off, so nothing is ever sent.
const ENDPOINT = 'https://127.0.0.1:9/hooks/catalog?token=receiver-own-token';

let stack: Stack;
let admin: string;
let readerClientId: string;

const call = <T = Subscription & ErrorReply>(
  path: string,
  options: {
    method?: string;
    body?: unknown;
    headers?: Record<string, string>;
    operation?: CatalogOperationId;
  } = {},
) => stack.call<T>(path, { token: admin, ...options });

async function subscribe(body: Record<string, unknown> = {}) {
  const reply = await call(BASE, {
    method: 'POST',
    body: { clientId: readerClientId, url: ENDPOINT, eventTypes: ['product.created'], ...body },
    operation: 'createWebhookSubscription',
  });
  expect(reply.status, reply.text).toBe(201);
  return reply;
}

async function auditOf(subscriptionId: string): Promise<AuditEvent[]> {
  const reply = await call<{ events: AuditEvent[] }>(
    `/audit-events?targetType=webhook-subscription&targetId=${subscriptionId}&limit=100`,
    { operation: 'listAuditEvents' },
  );
  expect(reply.status, reply.text).toBe(200);
  return reply.body.events;
}

beforeAll(async () => {
  stack = await startStack({
    env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DELIVERY: 'false' },
  });
  admin = await stack.idToken(['admin']);
  readerClientId = (await stack.client({ scopes: ['products.read'] })).client.clientId;
}, 180_000);
afterAll(() => stack?.stop());

describe('POST /admin/webhook-subscriptions', () => {
  it('returns the signing secret once, and GET and the list never show it nor any sealed value', async () => {
    const created = await subscribe({ description: 'Shop sync' });
    expect(created.body.id).toMatch(/^[a-zA-Z0-9]{26}$/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.body).toMatchObject({ state: 'active', enabled: true, description: 'Shop sync' });
    expect(created.headers.etag).toMatch(/^"\d+\.[0-9a-f]{12}"$/);
    const stored = await stack.store.webhooks.getSubscription(created.body.id);
    const secret = created.body.secret ?? '';

    const read = await call(`${BASE}/${created.body.id}`, { operation: 'getWebhookSubscription' });
    const listed = await call(`${BASE}?clientId=${readerClientId}`, {
      operation: 'listWebhookSubscriptions',
    });
    for (const reply of [read, listed]) {
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain(secret);
      expect(reply.text).not.toContain('whsec_');
      expect(reply.text).not.toContain(stored?.secretSealed);
      expect(reply.text).not.toMatch(/"(secret|secretSealed|previousSecretSealed|version)"/);
    }
    expect(read.headers.etag).toBe(created.headers.etag);
  });

  it('refuses a plain http: URL with VALIDATION_ERROR on url', async () => {
    const reply = await call(BASE, {
      method: 'POST',
      body: { clientId: readerClientId, url: 'http://example.com/hook', eventTypes: ['product.created'] },
      operation: 'createWebhookSubscription',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('VALIDATION_ERROR');
    expect(reply.body.details?.field).toBe('url');
  });

  it('accepts a loopback endpoint when WEBHOOK_ALLOW_PRIVATE_NETWORKS is true', async () => {
    const reply = await subscribe({ url: 'https://localhost:9/hook' });
    expect(reply.body.url).toBe('https://localhost:9/hook');
  });

  it('refuses an event type outside the client scopes, naming the type and the missing scope', async () => {
    const reply = await call(BASE, {
      method: 'POST',
      body: { clientId: readerClientId, url: ENDPOINT, eventTypes: ['product.created', 'brand.changed'] },
      operation: 'createWebhookSubscription',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('VALIDATION_ERROR');
    expect(reply.body.details?.field).toBe('eventTypes');
    expect(reply.body.message).toContain('brand.changed');
    expect(reply.body.message).toContain('brands.read');
  });

  it('refuses a revoked client with 400 and an unknown client with 404', async () => {
    const { client } = await stack.client({ scopes: ['products.read'] });
    await stack.store.clients.revoke(client.clientId, { userId: 'test', userName: 'test suite' });
    const revoked = await call(BASE, {
      method: 'POST',
      body: { clientId: client.clientId, url: ENDPOINT, eventTypes: ['product.changed'] },
      operation: 'createWebhookSubscription',
    });
    expect(revoked.status).toBe(400);
    expect(revoked.body).toMatchObject({ error: 'VALIDATION_ERROR', details: { field: 'clientId' } });
    const unknown = await call(BASE, {
      method: 'POST',
      body: { clientId: 'Z'.repeat(26), url: ENDPOINT, eventTypes: ['product.changed'] },
      operation: 'createWebhookSubscription',
    });
    expect(unknown.status).toBe(404);
  });

  it('refuses a body that is not the contract shape with 400, never 500', async () => {
    for (const body of [
      {},
      { clientId: readerClientId, url: ENDPOINT, eventTypes: [] },
      { clientId: readerClientId, url: ENDPOINT, eventTypes: ['product.deleted'] },
      { clientId: readerClientId, url: 'not a url', eventTypes: ['product.created'] },
      { clientId: readerClientId, url: ENDPOINT, eventTypes: ['product.created'], secret: 'whsec_x' },
      '{"clientId":',
    ]) {
      const reply = await call(BASE, { method: 'POST', body, operation: 'createWebhookSubscription' });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('PATCH /admin/webhook-subscriptions/{subscriptionId}', () => {
  it('answers 412 with the current ETag when If-Match names an older version', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}`;
    const staleTag = String(created.headers.etag);
    const first = await call(path, {
      method: 'PATCH',
      headers: { 'If-Match': staleTag, 'Content-Type': 'application/merge-patch+json' },
      body: { description: 'first' },
      operation: 'patchWebhookSubscription',
    });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.etag).not.toBe(staleTag);
    const second = await call(path, {
      method: 'PATCH',
      headers: { 'If-Match': staleTag },
      body: { description: 'second' },
      operation: 'patchWebhookSubscription',
    });
    expect(second.status).toBe(412);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect((await call(path)).body.description).toBe('first');
  });

  it('enabled:false disables it for an administrator, and enabled:true clears the disabled and failing states', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}`;
    const disabled = await call(path, { method: 'PATCH', body: { enabled: false } });
    expect(disabled.body).toMatchObject({ enabled: false, state: 'disabled', disabledReason: 'admin' });
    const enabled = await call(path, { method: 'PATCH', body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, state: 'active', disabledReason: null });

    // A delivery given up on marks it failing, as the delivery worker records it.
    const product = await call<{ id: string }>('/products', {
      method: 'POST',
      body: { productCode: `WEBHOOK-${created.body.id}`, name: 'Webhook product' },
    });
    expect(product.status, product.text).toBe(201);
    await stack.store.webhooks.enqueueChanges(1000);
    const claimed = await stack.store.webhooks.claimDue({
      limit: 100,
      perSubscription: 100,
      leaseMs: 60_000,
    });
    const mine = claimed.filter((delivery) => delivery.subscriptionId === created.body.id);
    expect(mine.length).toBeGreaterThan(0);
    await stack.store.webhooks.recordAttempts(
      mine.map((delivery) => ({
        deliveryId: delivery.id,
        claim: delivery.claim,
        outcome: 'retry' as const,
        statusCode: 503,
        error: 'HTTP 503',
        latencyMs: 5,
        startedAt: new Date(),
        nextAttemptAt: null,
      })),
    );
    expect((await call(path)).body).toMatchObject({ state: 'failing' });
    const recovered = await call(path, { method: 'PATCH', body: { enabled: true } });
    expect(recovered.body).toMatchObject({ state: 'active', failingSince: null });
  });

  it('applies the create rules to a changed url and eventTypes', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}`;
    const scope = await call(path, { method: 'PATCH', body: { eventTypes: ['brand.changed'] } });
    expect(scope.status).toBe(400);
    expect(scope.body.message).toContain('brands.read');
    const plain = await call(path, { method: 'PATCH', body: { url: 'http://127.0.0.1/hook' } });
    expect(plain.status).toBe(400);
    expect(plain.body.details?.field).toBe('url');
    const empty = await call(path, { method: 'PATCH', body: {} });
    expect(empty.status).toBe(400);
    const cleared = await call(path, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { description: null },
      operation: 'patchWebhookSubscription',
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.description).toBeNull();
  });
});

describe('POST /admin/webhook-subscriptions/{subscriptionId}/rotate-secret', () => {
  it('returns a new secret and previousSecretExpiresAt overlapHours ahead (24 by default, 0 drops the old one)', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}/rotate-secret`;
    const before = Date.now();
    const rotated = await call<{ subscriptionId: string; secret: string; previousSecretExpiresAt: string }>(
      path,
      { method: 'POST', operation: 'rotateWebhookSecret' },
    );
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.subscriptionId).toBe(created.body.id);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const overlapMs = Date.parse(rotated.body.previousSecretExpiresAt) - before;
    expect(overlapMs).toBeGreaterThan(23.9 * 3_600_000);
    expect(overlapMs).toBeLessThan(24.1 * 3_600_000);
    const read = await call(`${BASE}/${created.body.id}`);
    expect(read.body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);

    const dropped = await call<{ previousSecretExpiresAt: string | null }>(path, {
      method: 'POST',
      body: { overlapHours: 0 },
      operation: 'rotateWebhookSecret',
    });
    expect(dropped.body.previousSecretExpiresAt).toBeNull();
    const refused = await call(path, { method: 'POST', body: { overlapHours: 169 } });
    expect(refused.status).toBe(400);
  });
});

describe('DELETE /admin/webhook-subscriptions/{subscriptionId}', () => {
  it('deletes it: GET then answers 404, and a second DELETE too', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}`;
    const deleted = await call(path, { method: 'DELETE', operation: 'deleteWebhookSubscription' });
    expect(deleted.status).toBe(204);
    expect((await call(path, { operation: 'getWebhookSubscription' })).status).toBe(404);
    expect((await call(path, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('GET /admin/webhook-subscriptions/{subscriptionId}/deliveries', () => {
  it('answers an empty page as {deliveries: [], nextBefore: null}, and 404 for an unknown subscription', async () => {
    const created = await subscribe();
    const page = await call(`${BASE}/${created.body.id}/deliveries?limit=10`, {
      operation: 'listWebhookDeliveries',
    });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({ deliveries: [], nextBefore: null });
    expect((await call(`${BASE}/${'Q'.repeat(26)}/deliveries`)).status).toBe(404);
    const farCursor = await call(`${BASE}/${created.body.id}/deliveries?before=999999999999999`);
    expect(farCursor.status, farCursor.text).toBe(200);
    // Longer than an exact number on both engines: refused, never a 500.
    expect((await call(`${BASE}/${created.body.id}/deliveries?before=9999999999999999`)).status).toBe(400);
    expect((await call(`${BASE}/${created.body.id}/deliveries?before=abc`)).status).toBe(400);
    expect((await call(`${BASE}/${created.body.id}/deliveries?limit=0`)).status).toBe(400);
    expect((await call(`${BASE}/${created.body.id}/deliveries?status=lost`)).status).toBe(400);
  });

  it('shows a delivery without its subscriptionId or feed sequence', async () => {
    const created = await subscribe();
    await call('/products', {
      method: 'POST',
      body: { productCode: `WEBHOOK-LOG-${created.body.id}`, name: 'Logged product' },
    });
    await stack.store.webhooks.enqueueChanges(1000);
    const page = await call<{ deliveries: Record<string, unknown>[] }>(
      `${BASE}/${created.body.id}/deliveries`,
      {
        operation: 'listWebhookDeliveries',
      },
    );
    expect(page.body.deliveries.length).toBeGreaterThan(0);
    expect(page.body.deliveries[0]).toMatchObject({ eventType: 'product.created', status: 'pending' });
    expect(page.body.deliveries[0]).not.toHaveProperty('subscriptionId');
    expect(page.body.deliveries[0]).not.toHaveProperty('sequence');
  });
});

describe('POST /admin/webhook-subscriptions/{subscriptionId}/redeliver', () => {
  it('refuses a range whose from is not before to, an empty body and a malformed delivery id with 400', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}/redeliver`;
    for (const body of [
      { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      {},
      { deliveryId: 'not-a-message-id' },
      { deliveryId: `msg_${'a'.repeat(26)}`, from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
    ]) {
      const reply = await call(path, { method: 'POST', body, operation: 'redeliverWebhookEvents' });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('queues a valid range (0 when nothing finished), and answers 404 for an unknown delivery id', async () => {
    const created = await subscribe();
    const path = `${BASE}/${created.body.id}/redeliver`;
    const ranged = await call<{ queued: number }>(path, {
      method: 'POST',
      body: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
      operation: 'redeliverWebhookEvents',
    });
    expect(ranged.status, ranged.text).toBe(200);
    expect(ranged.body).toEqual({ queued: 0 });
    const unknown = await call(path, { method: 'POST', body: { deliveryId: `msg_${'b'.repeat(26)}` } });
    expect(unknown.status).toBe(404);
  });
});

describe('audit trail', () => {
  it('records webhook-subscription.create, update, rotate-secret, redeliver and delete, never with a secret', async () => {
    const created = await subscribe();
    const id = created.body.id;
    await call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'audited' } });
    const rotated = await call<{ secret: string }>(`${BASE}/${id}/rotate-secret`, { method: 'POST' });
    await call(`${BASE}/${id}/redeliver`, {
      method: 'POST',
      body: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
    });
    const stored = await stack.store.webhooks.getSubscription(id);
    expect((await call(`${BASE}/${id}`, { method: 'DELETE' })).status).toBe(204);

    const events = await auditOf(id);
    expect(events.map((event) => event.action).reverse()).toEqual([
      'webhook-subscription.create',
      'webhook-subscription.update',
      'webhook-subscription.rotate-secret',
      'webhook-subscription.redeliver',
      'webhook-subscription.delete',
    ]);
    const trail = JSON.stringify(events);
    for (const secret of [
      created.body.secret,
      rotated.body.secret,
      stored?.secretSealed,
      stored?.previousSecretSealed,
    ]) {
      expect(secret).toBeTypeOf('string');
      expect(trail).not.toContain(secret);
    }
    expect(trail).not.toContain('whsec_');
    // The receiver's own token in the URL's query is no business of the trail.
    expect(trail).not.toContain('receiver-own-token');
  });
});

describe('access', () => {
  it('answers 403 to an M2M token on every webhook route, whatever its scopes', async () => {
    const { token } = await stack.m2mToken([
      'products.read',
      'products.write',
      'brands.read',
      'brands.write',
    ]);
    const created = await subscribe();
    const one = `${BASE}/${created.body.id}`;
    const routes: [string, string, unknown?][] = [
      ['GET', BASE],
      ['POST', BASE, { clientId: readerClientId, url: ENDPOINT, eventTypes: ['product.created'] }],
      ['GET', one],
      ['PATCH', one, { enabled: false }],
      ['DELETE', one],
      ['POST', `${one}/rotate-secret`, {}],
      ['GET', `${one}/deliveries`],
      ['POST', `${one}/redeliver`, { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' }],
    ];
    for (const [method, path, body] of routes) {
      const reply = await stack.call(path, { method, token, ...(body === undefined ? {} : { body }) });
      expect(reply.status, `${method} ${path}`).toBe(403);
    }
    expect((await call(one)).body.enabled).toBe(true);
  });
});

describe('with WEBHOOK_ALLOW_PRIVATE_NETWORKS false (the default)', () => {
  let api: ApiOverStore;
  let token: string;
  let clientId: string;

  beforeAll(async () => {
    api = await startApiOverStore({ dataDirPrefix: 'webhook-policy-', wrap: () => ({}) });
    const email = 'webhook-policy@example.test';
    const password = 'correct horse battery staple';
    await createAdminUser({ users: api.store.adminUsers, email, password, groups: ['admin'] });
    token = await obtainAdminIdToken({ authUrl: api.auth.url, ca: api.ca, email, password });
    const client = await api.store.clients.create({
      clientId: 'P'.repeat(26),
      clientName: 'policy client',
      scopes: ['products.read'],
      createdBy: { userId: 'test', userName: 'test suite' },
      expiresAt: null,
      channel: null,
      secretHash: 'unused',
      tokenLifetimeSeconds: 3600,
    });
    clientId = client.clientId;
  }, 180_000);
  afterAll(() => api?.stop());

  it('refuses loopback and private endpoints with VALIDATION_ERROR on url and the reason', async () => {
    for (const url of ['https://127.0.0.1/hook', 'https://localhost:8443/hook', 'https://10.0.0.5/hook']) {
      const reply = await rawRequest(`${api.base}${BASE}`, {
        method: 'POST',
        ca: api.ca,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ clientId, url, eventTypes: ['product.created'] }),
      });
      const body = JSON.parse(reply.body) as ErrorReply;
      expect(reply.status, `${url}: ${reply.body}`).toBe(400);
      expect(validateResponse('createWebhookSubscription', reply.status, body)).toEqual([]);
      expect(body.error).toBe('VALIDATION_ERROR');
      expect(body.details?.field).toBe('url');
      expect(body.details?.reason).toBeTypeOf('string');
    }
  });
});
