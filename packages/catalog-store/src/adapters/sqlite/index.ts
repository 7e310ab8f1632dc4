// The embedded adapter's internals that a search engine over the same file needs beside its read
// side (@catalog/store/sqlite-reading): opening the record store over it, the catalogue version,
// and writing records into a replica. Exported as @catalog/store/sqlite for @catalog/search's
// engines and @catalog/engines' entries (opening, migrating and checking the file) only; programs
// never import it.

export { catalogueVersionReader } from './catalogue-version.ts';
export { checkDatabaseIntegrity, type IntegrityReport } from './check-integrity.ts';
export { catalogDatabasePath } from './database-path.ts';
export type { MigrationReport } from './migrate.ts';
export { migrateDatabase } from './migrate-database.ts';
export {
  openSqliteCatalogue,
  openSqliteRecordStore,
  type SqliteRecordStore,
  type SqliteRecordStoreOptions,
  storedSyncTokenSecret,
} from './open-sqlite-catalog-store.ts';
export {
  openSqliteWebhookStore,
  type SqliteWebhookStore,
  type SqliteWebhookStoreOptions,
} from './open-sqlite-webhook-store.ts';
export { appliedSequence, applyRecords, replicaOrigin, setReplicaOrigin } from './replica/apply-records.ts';
export { loadSnapshot } from './replica/load-snapshot.ts';
