import type { DatabaseSync } from 'node:sqlite';
import type { CatalogueSnapshot, LoadTarget } from '../../ports/catalog-store.ts';
import { canonicaliseStoredEmails } from '../../records/admin-user-records.ts';
import { RecordAdminUserStore } from '../../records/record-admin-user-store.ts';
import { RecordAuditLog } from '../../records/record-audit-log.ts';
import { RecordBrandStore } from '../../records/record-brand-store.ts';
import { RecordChangeFeed } from '../../records/record-change-feed.ts';
import { RecordClientStore } from '../../records/record-client-store.ts';
import { RecordProductStore } from '../../records/record-product-store.ts';
import { RecordWebChannelStore } from '../../records/record-web-channel-store.ts';
import { RecordWebhookStore } from '../../records/record-webhook-store.ts';
import { insertSnapshotReferences } from '../../records/snapshot-references.ts';
import { compactFullTextIndex } from './compact-full-text-index.ts';
import { migrate } from './migrate.ts';
import { openDatabase } from './open-database.ts';
import { raiseCacheForLoad } from './records/load-cache.ts';
import {
  catalogueIsEmpty,
  EMPTY_LOAD_CACHE_KIB,
  loadEmptyCatalogue,
} from './records/load-empty-catalogue.ts';
import { SqliteFeed } from './records/sqlite-feed.ts';
import { SqliteProducts } from './records/sqlite-products.ts';
import { runOn, SQLITE_DIALECT, sqliteRecordEngine } from './records/sqlite-record-engine.ts';
import { statement } from './statement-cache.ts';
import { inLongWriteTransaction, setBeforeCommit, transactionTime } from './transaction.ts';
import { backfillSearchDocuments, refreshStaleSearchDocuments } from './write-search-documents.ts';

export interface SqliteRecordStoreOptions {
  databasePath: string;
}

/**
 * The embedded records. The file's search tables (full-text index, facet counts, stored search
 * documents) are kept by the records' own write transactions (triggers, and the stale documents
 * refreshed before each commit), so they are this adapter's, not the search engine's: the engines
 * in @catalog/search only read them, or (a replica) write records and let this upkeep derive them.
 * Hence compacting the full-text index after a bulk load is a records store's task here.
 */
export type SqliteRecordStore = LoadTarget;

/** The key syncTokens are signed with when the configuration names none (tests, benchmarks). */
export function storedSyncTokenSecret(db: DatabaseSync): Uint8Array {
  const row = statement(db, "SELECT value FROM meta WHERE key = 'sync_token_secret'").get() as {
    value: string;
  };
  return Buffer.from(row.value, 'hex');
}

/**
 * The demo catalogue at first start: channels, brands and products in one transaction, through the
 * empty catalogue's bulk load (load-empty-catalogue.ts), only when no product exists yet when the
 * write lock is taken, so that processes racing at first start load it once. The load's larger page
 * cache is given back afterwards: this connection then serves the API.
 */
async function loadIfEmpty(db: DatabaseSync, snapshot: CatalogueSnapshot): Promise<boolean> {
  const { cache_size: cacheSize } = db.prepare('PRAGMA cache_size').get() as { cache_size: number };
  const loaded = await inLongWriteTransaction(db, async () => {
    if (!catalogueIsEmpty(db)) return false;
    runOn(db, insertSnapshotReferences(snapshot, transactionTime(db)));
    raiseCacheForLoad(db, EMPTY_LOAD_CACHE_KIB);
    await loadEmptyCatalogue(db, snapshot.products, {});
    return true;
  });
  db.exec(`PRAGMA cache_size = ${cacheSize}`);
  if (loaded) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  return loaded;
}

/** Opens (creating and migrating as needed) the catalogue database at `databasePath`. */
export function openSqliteRecordStore(options: SqliteRecordStoreOptions): SqliteRecordStore {
  return openSqliteCatalogue(options).store;
}

/**
 * The records and their writer connection, for a search engine over the same file (it reads the
 * catalogue's version on this connection) and for the search replica, which writes rows as they are.
 */
export function openSqliteCatalogue(options: SqliteRecordStoreOptions): {
  store: SqliteRecordStore;
  db: DatabaseSync;
} {
  const db = openDatabase(options.databasePath);
  migrate(db);
  runOn(db, canonicaliseStoredEmails(SQLITE_DIALECT));
  setBeforeCommit(db, () => refreshStaleSearchDocuments(db));
  // Once per database; at 1M products about half a minute, in short transactions.
  backfillSearchDocuments(db);
  const records = sqliteRecordEngine(db);
  const store: SqliteRecordStore = {
    products: new RecordProductStore(records, new SqliteProducts(db)),
    brands: new RecordBrandStore(records),
    webChannels: new RecordWebChannelStore(records),
    clients: new RecordClientStore(records),
    adminUsers: new RecordAdminUserStore(records),
    audit: new RecordAuditLog(records),
    changes: new RecordChangeFeed(records, new SqliteFeed(db)),
    webhooks: new RecordWebhookStore(records),
    loadIfEmpty: (snapshot) => loadIfEmpty(db, snapshot),
    compactSearchIndex: async () => compactFullTextIndex(db),
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
  return { store, db };
}
