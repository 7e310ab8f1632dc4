import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { rawRequest, runToExit } from '@catalog/server-runtime/testing';
import { catalogDatabasePath } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiOverStore, startApiOverStore } from './support/api-over-store.ts';
import { type Stack, startStack } from './support/stack.ts';

const ADMIN_CLI = fileURLToPath(new URL('../../operator-cli/src/admin-cli.ts', import.meta.url));
const PASSWORD = 'correct horse battery staple';
const ADMIN_ROLE_REQUIRED = { status: 403, message: 'Admin role required' };

/** An administrator of the stack's store with a fresh ID token from the real sign-in flow. */
async function signedInAdmin(stack: Stack, email: string) {
  const user = await createAdminUser({
    users: stack.store.adminUsers,
    email,
    password: PASSWORD,
    groups: ['admin'],
  });
  const token = await obtainAdminIdToken({
    authUrl: stack.auth.url,
    ca: stack.ca,
    email,
    password: PASSWORD,
  });
  return { user, token };
}

const outcome = (reply: { status: number; body: unknown }) => ({
  status: reply.status,
  message: (reply.body as { message?: unknown }).message,
});

describe('a withdrawn administrator is refused from the next request (both servers as processes)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses the ID token of an admin disabled with `pnpm admin users disable`: no listing, no client created', async () => {
    const { token } = await signedInAdmin(stack, 'leaver@example.com');
    expect((await stack.call('/oauth/clients', { token })).status).toBe(200);

    const disabled = await runToExit({
      entry: ADMIN_CLI,
      args: ['users', 'disable', '--email', 'leaver@example.com'],
      env: { DATA_DIR: stack.dataDir },
    });
    expect(disabled.code).toBe(0);

    expect(outcome(await stack.call('/oauth/clients', { token, operation: 'listM2MClients' }))).toEqual(
      ADMIN_ROLE_REQUIRED,
    );
    const before = (await stack.store.clients.list({ status: 'all' })).length;
    const create = await stack.call('/oauth/clients', {
      method: 'POST',
      token,
      body: { clientName: 'after leaving', scopes: ['products.read'] },
    });
    expect(outcome(create)).toEqual(ADMIN_ROLE_REQUIRED);
    expect((await stack.store.clients.list({ status: 'all' })).length).toBe(before);
    expect((await stack.call('/products/search?size=1', { token })).status).toBe(403);
  });

  it('refuses the ID token of an admin deleted from the store, or taken out of the admin group', async () => {
    const deleted = await signedInAdmin(stack, 'deleted@example.com');
    const demoted = await signedInAdmin(stack, 'demoted@example.com');
    const database = new DatabaseSync(catalogDatabasePath(stack.dataDir));
    try {
      database.prepare('DELETE FROM admin_users WHERE id = ?').run(deleted.user.id);
    } finally {
      database.close();
    }
    await stack.store.adminUsers.update(demoted.user.id, { groups: ['editors'] });
    for (const token of [deleted.token, demoted.token]) {
      expect(outcome(await stack.call('/oauth/clients', { token }))).toEqual(ADMIN_ROLE_REQUIRED);
    }
  });
});

describe('administrator status check unavailable: fail closed', () => {
  // The admin-user store behind the check, with a switch that makes it fail as an unreachable
  // database would. Everything else (token server process, tokens, TLS, SQLite, the app) is real.
  const state = { available: true };
  let api: ApiOverStore;

  beforeAll(async () => {
    api = await startApiOverStore({
      dataDirPrefix: 'admin-status-',
      wrap: (store) => ({
        adminUsers: {
          ...store.adminUsers,
          get: (id) =>
            state.available ? store.adminUsers.get(id) : Promise.reject(new Error('database is locked')),
        },
      }),
    });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('refuses an admin token with the generic 500 while the check cannot be made, and accepts it again once restored', async () => {
    const { store, auth, ca, base } = api;
    await createAdminUser({
      users: store.adminUsers,
      email: 'ops@example.com',
      password: PASSWORD,
      groups: ['admin'],
    });
    const token = await obtainAdminIdToken({
      authUrl: auth.url,
      ca,
      email: 'ops@example.com',
      password: PASSWORD,
    });
    const call = () =>
      rawRequest(`${base}/oauth/clients`, { ca, headers: { Authorization: `Bearer ${token}` } });
    expect((await call()).status).toBe(200);

    state.available = false;
    const refused = await call();
    expect(refused.status).toBe(500);
    expect(refused.body).not.toContain('database is locked');

    state.available = true;
    expect((await call()).status).toBe(200);
  });
});
