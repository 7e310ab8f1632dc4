// The embedded adapter's internals that a search engine over the same file needs: opening the
// file, its read transactions and cached statements, its rows, and writing records into a replica.
// Exported as @catalog/store/sqlite for @catalog/search's engines and @catalog/engines' entries
// (opening, migrating and checking the file) only; programs never import it.

export {
  type SearchDocument,
  searchDocumentJson,
  servesFromSearchDocument,
} from '../../model/search-document.ts';
export { toBrand } from '../../records/brand-row.ts';
export { catalogueVersionReader } from './catalogue-version.ts';
export { checkDatabaseIntegrity, type IntegrityReport } from './check-integrity.ts';
export { catalogDatabasePath } from './database-path.ts';
export type { MigrationReport } from './migrate.ts';
export { migrateDatabase } from './migrate-database.ts';
export { openDatabase } from './open-database.ts';
export {
  openSqliteCatalogue,
  openSqliteRecordStore,
  type SqliteRecordStore,
  type SqliteRecordStoreOptions,
  storedSyncTokenSecret,
} from './open-sqlite-catalog-store.ts';
export { readProductsBySeq } from './records/read-products.ts';
export { appliedSequence, applyRecords, replicaOrigin, setReplicaOrigin } from './replica/apply-records.ts';
export { loadSnapshot } from './replica/load-snapshot.ts';
export { snapshotVersion } from './snapshot-version.ts';
export { statement } from './statement-cache.ts';
export { inReadTransaction } from './transaction.ts';
