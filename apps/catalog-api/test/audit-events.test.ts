// The audit trail of the API's administrative writes, produced through the real routes and read back
// through GET /audit-events (issue 18): who, what, which target, from where, in which request; the
// changed fields old → new; nothing for a refused write; never a secret.

import type { AuditEvent, AuditEventPage } from '@catalog/contracts';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallOptions, type Stack, startStack } from './support/stack.ts';

let stack: Stack;
let admin: string;
let adminUserId: string;
const ADMIN_EMAIL = 'auditor@example.test';

/** Every request of this file carries its own request id, so each event can be matched to its request. */
let requestCounter = 0;
const nextRequestId = () => {
  requestCounter += 1;
  return `audit-test-${String(requestCounter).padStart(4, '0')}`;
};

async function write(
  path: string,
  options: CallOptions,
): Promise<{ status: number; body: Record<string, unknown>; requestId: string }> {
  const requestId = nextRequestId();
  const reply = await stack.call<Record<string, unknown>>(path, {
    token: admin,
    ...options,
    headers: { 'X-Request-Id': requestId, ...options.headers },
  });
  return { status: reply.status, body: reply.body, requestId };
}

async function events(query: Record<string, string> = {}): Promise<AuditEventPage> {
  const reply = await stack.call<AuditEventPage>(`/audit-events?${new URLSearchParams(query)}`, {
    token: admin,
    operation: 'listAuditEvents',
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** The one event the request with this id recorded. */
async function eventOf(requestId: string): Promise<AuditEvent> {
  const recorded = (await events({ limit: '200' })).events.filter((event) => event.requestId === requestId);
  expect(recorded, `events of ${requestId}`).toHaveLength(1);
  return recorded[0] as AuditEvent;
}

beforeAll(async () => {
  stack = await startStack();
  const password = 'an auditor password long enough';
  const user = await createAdminUser({
    users: stack.store.adminUsers,
    email: ADMIN_EMAIL,
    password,
    groups: ['admin'],
  });
  adminUserId = user.id;
  admin = await obtainAdminIdToken({ authUrl: stack.auth.url, ca: stack.ca, email: ADMIN_EMAIL, password });
});
afterAll(() => stack?.stop());

describe('audit trail of the API routes (issue 18)', () => {
  it('records a client create with who, when, target, source address and request id, and never the secret', async () => {
    const before = new Date().toISOString();
    const created = await write('/oauth/clients', {
      method: 'POST',
      body: { clientName: 'Audited shop', scopes: ['products.read'], expiresInDays: 30 },
    });
    expect(created.status).toBe(201);
    const event = await eventOf(created.requestId);
    expect(event).toMatchObject({
      action: 'client.create',
      actor: { kind: 'admin', userId: adminUserId, email: ADMIN_EMAIL },
      target: { type: 'client', id: created.body.clientId },
      sourceIp: '127.0.0.1',
      requestId: created.requestId,
      details: { clientName: 'Audited shop', scopes: 'products.read', expiresAt: created.body.expiresAt },
    });
    expect(event.occurredAt >= before).toBe(true);
    expect(JSON.stringify(await events({ limit: '200' }))).not.toContain(String(created.body.clientSecret));
  });

  it('records a client update with old → new scopes and channel, then rotate-secret and revoke', async () => {
    const channel = await write('/company-settings/web-channels', {
      method: 'POST',
      body: { slug: 'audit-shop', name: 'Audit shop' },
    });
    expect(channel.status).toBe(201);
    expect(await eventOf(channel.requestId)).toMatchObject({
      action: 'web-channel.create',
      target: { type: 'web-channel', id: 'audit-shop' },
    });
    const renamed = await write('/company-settings/web-channels', {
      method: 'PUT',
      body: { slug: 'audit-shop', name: 'Audit shop (EU)' },
    });
    expect(renamed.status).toBe(200);
    expect(await eventOf(renamed.requestId)).toMatchObject({
      action: 'web-channel.rename',
      target: { type: 'web-channel', id: 'audit-shop' },
    });

    const created = await write('/oauth/clients', {
      method: 'POST',
      body: { clientName: 'Rescoped shop', scopes: ['products.read'] },
    });
    const clientId = created.body.clientId as string;
    const updated = await write(`/oauth/clients/${clientId}`, {
      method: 'PUT',
      body: { scopes: ['products.read', 'brands.read'], channel: 'audit-shop' },
    });
    expect(updated.status).toBe(200);
    const update = await eventOf(updated.requestId);
    expect(update).toMatchObject({ action: 'client.update', target: { type: 'client', id: clientId } });
    expect(update.changes).toEqual({
      scopes: { from: ['products.read'], to: ['products.read', 'brands.read'] },
      channel: { from: null, to: 'audit-shop' },
    });

    const rotation = await write(`/oauth/clients/${clientId}/rotate-secret`, { method: 'POST' });
    expect(rotation.status).toBe(200);
    expect(await eventOf(rotation.requestId)).toMatchObject({
      action: 'client.rotate-secret',
      target: { type: 'client', id: clientId },
    });
    const revoked = await write(`/oauth/clients/${clientId}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(await eventOf(revoked.requestId)).toMatchObject({
      action: 'client.revoke',
      actor: { kind: 'admin', email: ADMIN_EMAIL },
      target: { type: 'client', id: clientId },
    });
  });

  it('records product and brand writes: create, replace and archive', async () => {
    const brand = await write('/brands', {
      method: 'POST',
      body: { name: 'Audited brand', slug: 'audited-brand' },
    });
    expect(brand.status).toBe(201);
    const brandId = brand.body.id as string;
    expect(await eventOf(brand.requestId)).toMatchObject({
      action: 'brand.create',
      target: { type: 'brand', id: brandId },
    });
    const renamed = await write(`/brands/${brandId}`, {
      method: 'PUT',
      headers: { 'If-Match': '*' },
      body: { name: 'Audited brand 2', slug: 'audited-brand', archived: false },
    });
    expect(renamed.status).toBe(200);
    const brandUpdate = await eventOf(renamed.requestId);
    expect(brandUpdate).toMatchObject({ action: 'brand.update', target: { type: 'brand', id: brandId } });
    expect(brandUpdate.changes?.name).toEqual({ from: 'Audited brand', to: 'Audited brand 2' });
    const archivedBrand = await write(`/brands/${brandId}`, { method: 'DELETE' });
    expect(archivedBrand.status).toBe(200);
    expect(await eventOf(archivedBrand.requestId)).toMatchObject({ action: 'brand.archive' });

    const product = await write('/products', {
      method: 'POST',
      body: { productCode: 'AUDIT-P1', name: 'Audited product' },
    });
    expect(product.status).toBe(201);
    const productId = product.body.id as string;
    expect(await eventOf(product.requestId)).toMatchObject({
      action: 'product.create',
      target: { type: 'product', id: productId },
    });
    const replaced = await write(`/products/${productId}`, {
      method: 'PUT',
      headers: { 'If-Match': '*' },
      body: { productCode: 'AUDIT-P1', name: 'Audited product, renamed' },
    });
    expect(replaced.status).toBe(200);
    expect(await eventOf(replaced.requestId)).toMatchObject({
      action: 'product.replace',
      target: { type: 'product', id: productId },
    });
    const archived = await write(`/products/${productId}`, { method: 'DELETE' });
    expect(archived.status).toBe(200);
    expect(await eventOf(archived.requestId)).toMatchObject({ action: 'product.archive' });
  });

  it('records nothing for a refused write or a rotation request naming no client', async () => {
    const total = async () => (await events({ limit: '200' })).events.length;
    const count = await total();
    const refused = [
      await write('/oauth/clients', {
        method: 'POST',
        body: { clientName: 'ab', scopes: ['products.read'] },
      }),
      await write('/oauth/clients/AAAAAAAAAAAAAAAAAAAAAAAAAA', {
        method: 'PUT',
        body: { clientName: 'Nobody' },
      }),
      await write('/products', { method: 'POST', body: { name: 'No code' } }),
      await write('/brands/nope', { method: 'PUT', body: { name: 'Nobody' } }),
      await write('/company-settings/web-channels', { method: 'PUT', body: { slug: 'nope', name: 'Nope' } }),
    ];
    for (const reply of refused) expect(reply.status).toBeGreaterThanOrEqual(400);
    const rotation = await write('/oauth/clients/AAAAAAAAAAAAAAAAAAAAAAAAAA/rotate-secret', {
      method: 'POST',
    });
    expect(rotation.status).toBe(200);
    expect(await total()).toBe(count);
  });

  it('filters by actor, action, target and time, and pages newest first with before/nextBefore', async () => {
    const created = await write('/oauth/clients', {
      method: 'POST',
      body: { clientName: 'Paged shop', scopes: ['brands.read'] },
    });
    const clientId = created.body.clientId as string;
    for (const name of ['Paged shop 2', 'Paged shop 3', 'Paged shop 4']) {
      expect(
        (await write(`/oauth/clients/${clientId}`, { method: 'PUT', body: { clientName: name } })).status,
      ).toBe(200);
    }
    const ofClient = await events({ targetType: 'client', targetId: clientId });
    expect(ofClient.events.map((event) => event.action)).toEqual([
      'client.update',
      'client.update',
      'client.update',
      'client.create',
    ]);
    expect(ofClient.nextBefore).toBeNull();

    // Two at a time, newest first, until nextBefore is null: the same four, none twice.
    const paged: AuditEvent[] = [];
    let before: string | null = null;
    do {
      const query: Record<string, string> = { targetId: clientId, limit: '2' };
      if (before !== null) query.before = before;
      const page: AuditEventPage = await events(query);
      expect(page.events.length).toBeLessThanOrEqual(2);
      paged.push(...page.events);
      before = page.nextBefore;
    } while (before !== null);
    expect(paged.map((event) => event.id)).toEqual(ofClient.events.map((event) => event.id));

    expect(
      (await events({ action: 'client.create', actor: ADMIN_EMAIL })).events.length,
    ).toBeGreaterThanOrEqual(2);
    expect((await events({ actor: adminUserId })).events.length).toBeGreaterThan(0);
    expect((await events({ actor: 'someone.else@example.test' })).events).toEqual([]);
    const newest = ofClient.events[0] as AuditEvent;
    const oldest = ofClient.events[3] as AuditEvent;
    const window = await events({ targetId: clientId, since: oldest.occurredAt, until: newest.occurredAt });
    expect(window.events.map((event) => event.id)).not.toContain(newest.id);
    expect(window.events.map((event) => event.id)).toContain(oldest.id);
  });

  it('answers 400 VALIDATION_ERROR naming the parameter for a malformed filter', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=201', 'limit'],
      ['since=yesterday', 'since'],
      ['until=2026-13-01T00:00:00Z', 'until'],
      ['action=client.delete', 'action'],
      ['targetType=user', 'targetType'],
      ['before=xyz', 'before'],
      ['before=0', 'before'],
    ] as const) {
      const reply = await stack.call<{ error: string; details: { field: string } }>(
        `/audit-events?${query}`,
        {
          token: admin,
          operation: 'listAuditEvents',
        },
      );
      expect(reply.status, query).toBe(400);
      expect(reply.body.error, query).toBe('VALIDATION_ERROR');
      expect(reply.body.details.field, query).toBe(field);
    }
  });

  it('is for administrators only: 401 without a token, 403 to an M2M token whatever its scopes', async () => {
    expect((await stack.call('/audit-events', { operation: 'listAuditEvents' })).status).toBe(401);
    const { token } = await stack.m2mToken([
      'products.read',
      'products.write',
      'brands.read',
      'brands.write',
    ]);
    expect((await stack.call('/audit-events', { token, operation: 'listAuditEvents' })).status).toBe(403);
  });

  it('is append-only: no method edits or deletes an event', async () => {
    const [event] = (await events({ limit: '1' })).events;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const body = method === 'DELETE' ? {} : { body: { action: 'client.create' } };
      const reply = await stack.call('/audit-events', { method, token: admin, ...body });
      expect(reply.status, method).toBe(405);
      const one = await stack.call(`/audit-events/${event?.id}`, { method, token: admin, ...body });
      expect(one.status, method).toBe(404);
    }
    expect((await events({ limit: '1' })).events[0]).toEqual(event);
  });
});
