// Both real servers as child processes on one temporary DATA_DIR, as `pnpm start` runs them, plus
// M2M clients created straight in the store.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GrantableScope } from '@catalog/contracts';
import { openRecords } from '@catalog/engines';
import { createAdminUser, obtainAdminIdToken } from '@catalog/identity';
import { generateClientSecret, hashClientSecret, loadClientSecretPepper } from '@catalog/server-runtime';
import { type SpawnedService, spawnServerPair } from '@catalog/server-runtime/testing';
import { catalogDatabasePath, type RecordStore } from '@catalog/store';

const apiEntry = fileURLToPath(new URL('../../../../apps/catalog-api/src/main.ts', import.meta.url));
const authEntry = fileURLToPath(new URL('../../../../apps/auth-server/src/main.ts', import.meta.url));

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface Stack {
  readonly dataDir: string;
  readonly ca: string;
  readonly baseUrl: string;
  readonly authUrl: string;
  readonly api: SpawnedService;
  readonly auth: SpawnedService;
  readonly store: RecordStore;
  credentials(scopes?: GrantableScope[], lifetimeSeconds?: number): Promise<Credentials>;
  /** Ids of every non-archived product, straight from the database. */
  liveProductIds(): Promise<string[]>;
  /** An administrator's ID token through the real sign-in flow. */
  adminIdToken(): Promise<string>;
  stop(): Promise<void>;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function clientId(): string {
  return [...randomBytes(26)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

export async function startStack(
  options: { demoProducts?: number; env?: Record<string, string> } = {},
): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sdk-stack-'));
  const { auth, api, ca } = await spawnServerPair({
    dataDir,
    authEntry,
    apiEntry,
    apiEnv: {
      DEMO_CATALOGUE_PRODUCTS: String(options.demoProducts ?? 0),
      RATE_LIMIT_RPS: '0',
      RATE_LIMIT_IP_PER_5MIN: '0',
      ...options.env,
    },
  });
  const store = await openRecords({ engine: 'sqlite', dataDir });
  const pepper = await loadClientSecretPepper({ dataDir });
  return {
    dataDir,
    ca,
    baseUrl: api.url,
    authUrl: auth.url,
    api,
    auth,
    store,
    async credentials(scopes = ['products.read', 'brands.read'], lifetimeSeconds = 3600) {
      const secret = generateClientSecret();
      const client = await store.clients.create({
        clientId: clientId(),
        clientName: 'sdk test client',
        scopes,
        createdBy: { userId: 'test', userName: 'sdk test suite' },
        expiresAt: null,
        channel: null,
        secretHash: hashClientSecret(secret, pepper),
        tokenLifetimeSeconds: lifetimeSeconds,
      });
      return { clientId: client.clientId, clientSecret: secret };
    },
    async liveProductIds() {
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(catalogDatabasePath(dataDir), { readOnly: true });
      try {
        const rows = db.prepare('SELECT id FROM products WHERE archived = 0 ORDER BY id').all() as {
          id: string;
        }[];
        return rows.map((row) => row.id);
      } finally {
        db.close();
      }
    },
    async adminIdToken() {
      const email = `admin.${Date.now()}.${randomBytes(3).toString('hex')}@example.test`;
      const password = 'correct horse battery staple';
      await createAdminUser({ users: store.adminUsers, email, password, groups: ['admin'] });
      return obtainAdminIdToken({ authUrl: auth.url, ca, email, password });
    },
    async stop() {
      await Promise.all([api.stop(), auth.stop()]);
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
