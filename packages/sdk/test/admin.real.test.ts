// createAdminClient against both real servers: the client-management routes of spec 4.2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  createAdminClient,
  createCatalogClient,
  ForbiddenError,
  PreconditionFailedError,
} from '../src/index.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ demoProducts: 20 });
});
afterAll(async () => {
  await stack?.stop();
});

describe('spec 4.2 through createAdminClient', () => {
  it('create → the new client gets a token and reads; update; rotation instructions; list; revoke → 403', async () => {
    const admin = createAdminClient({
      baseUrl: stack.baseUrl,
      idToken: await stack.adminIdToken(),
      ca: stack.ca,
    });
    const created = await admin.clients.create({ clientName: 'SDK admin test', scopes: ['products.read'] });
    expect(created.clientId).toMatch(/^[a-zA-Z0-9]{26}$/);
    expect(created.clientSecret).toEqual(expect.any(String));

    const integrator = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      clientId: created.clientId,
      clientSecret: created.clientSecret,
      scopes: ['products.read'],
      ca: stack.ca,
      pacing: false,
    });
    expect((await integrator.products.search({ size: 1 })).data).toHaveLength(1);

    const updated = await admin.clients.update(created.clientId, { description: 'renamed by the SDK test' });
    expect(updated.description).toBe('renamed by the SDK test');
    const instructions = await admin.clients.rotationInstructions(created.clientId);
    expect(instructions.instructions.length).toBeGreaterThan(0);
    const listed = await admin.clients.list({ status: 'active' });
    expect(listed.clients.map((client) => client.clientId)).toContain(created.clientId);

    const revoked = await admin.clients.revoke(created.clientId);
    expect(revoked.clientId).toBe(created.clientId);
    const refused = await integrator.products.search({ size: 1 }).catch((error) => error);
    expect(refused).toBeInstanceOf(ForbiddenError);
    await Promise.all([admin.close(), integrator.close()]);
  });

  it('get gives the client with its ETag; an update or revoke with a stale ifMatch rejects with PreconditionFailedError and writes nothing', async () => {
    const admin = createAdminClient({
      baseUrl: stack.baseUrl,
      idToken: await stack.adminIdToken(),
      ca: stack.ca,
    });
    const created = await admin.clients.create({ clientName: 'SDK conditional', scopes: ['products.read'] });
    const first = await admin.clients.get(created.clientId);
    expect(first.value.clientName).toBe('SDK conditional');
    expect(first.etag).toMatch(/^"[^"]+"$/);
    await admin.clients.update(created.clientId, { description: 'first editor' }, { ifMatch: first.etag });
    const stale = await admin.clients
      .update(created.clientId, { description: 'second editor' }, { ifMatch: first.etag })
      .catch((caught) => caught);
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED', attempts: 1 });
    const current = await admin.clients.get(created.clientId);
    expect((stale as PreconditionFailedError).currentEtag).toBe(current.etag);
    expect(current.value.description).toBe('first editor');
    await expect(admin.clients.revoke(created.clientId, { ifMatch: first.etag })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    expect((await admin.clients.revoke(created.clientId, { ifMatch: current.etag })).clientId).toBe(
      created.clientId,
    );
    await admin.close();
  });

  it('a validation failure is a BadRequestError with the contract code (INVALID_PARAMETER), never retried', async () => {
    const admin = createAdminClient({
      baseUrl: stack.baseUrl,
      idToken: await stack.adminIdToken(),
      ca: stack.ca,
    });
    const error = await admin.clients
      .create({ clientName: 'x', scopes: ['products.read'] })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, attempts: 1 });
    await admin.close();
  });

  it('an M2M token on the admin routes is refused with 403', async () => {
    const credentials = await stack.credentials(['products.read']);
    const integrator = createCatalogClient({
      baseUrl: stack.baseUrl,
      authUrl: stack.authUrl,
      ...credentials,
      scopes: ['products.read'],
      ca: stack.ca,
    });
    const admin = createAdminClient({
      baseUrl: stack.baseUrl,
      idToken: () => integrator.accessToken(),
      ca: stack.ca,
    });
    expect(await admin.clients.list().catch((error) => error)).toBeInstanceOf(ForbiddenError);
    await Promise.all([admin.close(), integrator.close()]);
  });
});
