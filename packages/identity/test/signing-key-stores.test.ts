import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresSigningKeySetStore } from '@catalog/store/postgres';
import { createTestDatabase, type TestDatabase } from '@catalog/store/testing';
import { afterAll, beforeAll, inject } from 'vitest';
import { FileSigningKeyStore } from '../src/adapters/file-signing-keys/file-signing-key-store.ts';
import { SharedSigningKeyStore } from '../src/adapters/shared-signing-keys/shared-signing-key-store.ts';
import { signingKeysFile } from '../src/keys/signing-key-set.ts';
import { signingKeyStoreContract } from './signing-key-store.contract.ts';

const PEPPER = randomBytes(32);

// The embedded default: the key file under a DATA_DIR of its own per test.
signingKeyStoreContract('the file under DATA_DIR', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'signing-key-file-'));
  return {
    open: async () => new FileSigningKeyStore(signingKeysFile(dataDir)),
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
    open: async () =>
      new SharedSigningKeyStore({
        records: await openPostgresSigningKeySetStore({ url }),
        pepper: PEPPER,
        place: 'the test schema (signing_key_set)',
      }),
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
});
