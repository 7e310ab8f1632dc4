// The PostgreSQL adapter's openers and migrations, exported as @catalog/store/postgres for
// @catalog/engines' entries (and tests of the adapter itself); programs never import it.

export { migratePostgresDatabase, type PostgresMigrationReport } from './migrate.ts';
export { openPostgresRecordStore, type PostgresRecordStoreOptions } from './open-postgres-record-store.ts';
export { openPostgresSigningKeySetStore } from './postgres-signing-key-set-store.ts';
