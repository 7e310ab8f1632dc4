import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { type ServerPair, spawnServerPair } from '@catalog/server-runtime/testing';
import type { CatalogStore } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminInProcess } from './support/run-admin-in-process.ts';

// `pnpm admin webhooks …` against the real catalog API and token server (issue 31): the commands go
// through the API's admin routes with an administrator's ID token, over HTTPS with the local CA.

const API = fileURLToPath(new URL('../../catalog-api/src/main.ts', import.meta.url));
const TOKEN_SERVER = fileURLToPath(new URL('../../auth-server/src/main.ts', import.meta.url));

let dataDir: string;
let servers: ServerPair;
let store: CatalogStore;
let token: string;
let clientId: string;

/** The command with the API's address, the token and the data directory whose tls/ca.pem it trusts. */
const webhooks = (args: string[]) =>
  runAdminInProcess([
    'webhooks',
    ...args,
    '--api-url',
    servers.api.url,
    '--token',
    token,
    '--data-dir',
    dataDir,
  ]);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'operator-webhooks-'));
  servers = await spawnServerPair({
    dataDir,
    authEntry: TOKEN_SERVER,
    apiEntry: API,
    // The receivers here are on loopback, and nothing is sent: these tests are about the commands.
    apiEnv: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DELIVERY: 'false', RATE_LIMIT_RPS: '0' },
  });
  store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir }, undefined), { searchWorkers: 1 });
  const email = 'webhooks-operator@example.test';
  const password = 'an operator typed this long password';
  await createAdminUser({ users: store.adminUsers, email, password, groups: ['admin'] });
  token = await obtainAdminIdToken({ authUrl: servers.auth.url, ca: servers.ca, email, password });
  const client = await store.clients.create({
    clientId: 'W'.repeat(26),
    clientName: 'webhook receiver',
    scopes: ['products.read'],
    createdBy: { userId: 'test', userName: 'test suite' },
    expiresAt: null,
    channel: null,
    secretHash: 'unused by these tests',
    tokenLifetimeSeconds: 3600,
  });
  clientId = client.clientId;
}, 180_000);

afterAll(async () => {
  await store?.close();
  await Promise.all([servers?.api.stop(), servers?.auth.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('pnpm admin webhooks (issue 31)', () => {
  it('create prints the id and the secret once with a warning, list shows it without the secret, disable and enable change its state', async () => {
    const created = await webhooks([
      'create',
      '--client',
      clientId,
      '--url',
      'https://127.0.0.1:9/hook',
      '--event',
      'product.created',
      '--event',
      'product.changed',
    ]);
    expect(created.stderr).toMatch(/shown only once/);
    expect(created.code).toBe(0);
    const id = /^id: ([A-Za-z0-9]{26})$/m.exec(created.stdout)?.[1] ?? '';
    const secret = /^secret: (whsec_\S+)$/m.exec(created.stdout)?.[1] ?? '';
    expect(id).not.toBe('');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const listed = await webhooks(['list', '--client', clientId, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(secret);
    const subscriptions = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(subscriptions).toEqual([
      expect.objectContaining({ id, state: 'active', eventTypes: ['product.created', 'product.changed'] }),
    ]);
    const table = await webhooks(['list']);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+${clientId}\\s+active`));

    const disabled = await webhooks(['disable', id]);
    expect(disabled).toMatchObject({ code: 0, stdout: `${id}: disabled (admin)\n` });
    expect((await store.webhooks.getSubscription(id))?.enabled).toBe(false);
    const enabled = await webhooks(['enable', id]);
    expect(enabled).toMatchObject({ code: 0, stdout: `${id}: active\n` });
  });

  it("prints the API's message and exits 1 when the API refuses (an event the client's scopes do not allow)", async () => {
    const refused = await webhooks([
      'create',
      '--client',
      clientId,
      '--url',
      'https://127.0.0.1:9/hook',
      '--event',
      'brand.changed',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/answered 400: .*brands\.read/);
    expect(refused.stdout).toBe('');
  });

  it('rotate-secret prints a new secret and the overlap, deliveries an empty log, redeliver the count, delete removes it', async () => {
    const created = await webhooks([
      'create',
      '--client',
      clientId,
      '--url',
      'https://127.0.0.1:9/other',
      '--event',
      'product.archived',
    ]);
    const id = /^id: (\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const rotated = await webhooks(['rotate-secret', id, '--overlap-hours', '2']);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^secret: whsec_/);
    expect(rotated.stderr).toMatch(/also signs until \d{4}-/);
    const log = await webhooks(['deliveries', id, '--json']);
    expect(log).toMatchObject({ code: 0, stdout: '' });
    const redelivered = await webhooks([
      'redeliver',
      id,
      '--from',
      '2026-01-01T00:00:00Z',
      '--to',
      '2027-01-01T00:00:00Z',
    ]);
    expect(redelivered).toMatchObject({ code: 0, stdout: 'queued: 0\n' });
    expect((await webhooks(['redeliver', id])).code).toBe(2);
    expect((await webhooks(['delete', id])).code).toBe(0);
    const gone = await webhooks(['disable', id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/answered 404/);
  });

  it('refuses without an ID token, with exit code 2', async () => {
    const result = await runAdminInProcess(['webhooks', 'list', '--api-url', servers.api.url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/ADMIN_ID_TOKEN/);
  });
});
