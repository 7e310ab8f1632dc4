import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@catalog/store/testing';
import { afterAll, beforeAll, inject } from 'vitest';
import { openSigningKeyStore } from '../src/keys/open-signing-key-store.ts';
import { signingKeyStoreContract } from './signing-key-store.contract.ts';

const PEPPER = randomBytes(32);

// The embedded default: the key file under a DATA_DIR of its own per test.
signingKeyStoreContract('the file under DATA_DIR', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'signing-key-file-'));
  return {
    open: () => openSigningKeyStore({ engine: 'sqlite', dataDir }, async () => PEPPER),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
});

// PostgreSQL: one database for the file, a schema (a deployment) of its own per test.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(inject('testSettings').databaseUrl, 'auth_keys');
});
afterAll(() => database?.drop());

signingKeyStoreContract('the shared store on PostgreSQL', async () => {
  const url = await database.schemaUrl();
  const dataDir = await mkdtemp(join(tmpdir(), 'signing-key-shared-'));
  return {
    open: () => openSigningKeyStore({ engine: 'postgres', url, dataDir }, async () => PEPPER),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
});
