import { SharedSigningKeyStore } from '@catalog/identity';
import {
  migratePostgresDatabase,
  openPostgresRecordStore,
  openPostgresSigningKeySetStore,
} from '@catalog/store/postgres';
import type { RecordsEngine } from '../engine-registry.ts';
import { describePostgres } from './describe-postgres.ts';

/**
 * Records every instance shares in PostgreSQL (DATABASE_URL); search runs in each instance's
 * replica, and the signing keys are the shared set, sealed with the client-secret pepper.
 */
export const postgresRecords: RecordsEngine<'postgres'> = {
  name: 'postgres',
  defaultSearchEngine: 'sqlite-replica',
  openRecords: (location) => openPostgresRecordStore({ url: location.url }),
  openLoadTarget: async (location) => {
    const records = await openPostgresRecordStore({ url: location.url, maxConnections: 2 });
    // No search index here to compact: each API instance's replica applies the load from the feed.
    return { ...records, compactSearchIndex: async () => undefined };
  },
  // Search documents belong to each API instance's replica, which builds its own.
  migrate: async (location) => ({
    ...(await migratePostgresDatabase(location.url)),
    searchDocumentsWritten: 0,
  }),
  openSigningKeyStore: async (location, pepper) => {
    const sealingPepper = await pepper();
    return new SharedSigningKeyStore({
      records: await openPostgresSigningKeySetStore({ url: location.url }),
      pepper: sealingPepper,
      place: `${describePostgres(location.url)} (signing_key_set)`,
    });
  },
  describe: (location) => describePostgres(location.url),
  // The server holds the database; a missing one fails to connect, which creates nothing.
  absence: () => undefined,
};
