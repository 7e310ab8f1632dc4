import { availableParallelism } from 'node:os';
import type { DatabaseSync } from 'node:sqlite';
import type { CatalogStore, CatalogueSnapshot } from '../../ports/catalog-store.ts';
import { canonicaliseStoredEmails } from '../../records/admin-user-records.ts';
import { RecordAdminUserStore } from '../../records/record-admin-user-store.ts';
import { RecordAuditLog } from '../../records/record-audit-log.ts';
import { RecordBrandStore } from '../../records/record-brand-store.ts';
import { RecordChangeFeed } from '../../records/record-change-feed.ts';
import { RecordClientStore } from '../../records/record-client-store.ts';
import { RecordProductStore } from '../../records/record-product-store.ts';
import { RecordWebChannelStore } from '../../records/record-web-channel-store.ts';
import { insertSnapshotReferences } from '../../records/snapshot-references.ts';
import { catalogueVersionReader } from './catalogue-version.ts';
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
import { SearchPageCache } from './search/page-cache.ts';
import { SqliteBrandSearch } from './search/sqlite-brand-search.ts';
import { SqliteProductSearch } from './search/sqlite-product-search.ts';
import { type SearchPoolObserver, SearchWorkerPool } from './search/worker-pool.ts';
import { statement } from './statement-cache.ts';

import { inLongWriteTransaction, setBeforeCommit, transactionTime } from './transaction.ts';
import { backfillSearchDocuments, refreshStaleSearchDocuments } from './write-search-documents.ts';

export interface SqliteCatalogStoreOptions {
  databasePath: string;
  /** Worker threads with read connections; default: the machine's parallelism, 2 to 4. */
  searchWorkers?: number;
  /** Budget of one search, queueing included (default 5000 ms). */
  searchTimeoutMs?: number;
  /** Hears of the search pool's load and of every search as it ends (the server's metrics). */
  searchObserver?: SearchPoolObserver;
  /** Bytes of repeated first-offset search pages kept (search/page-cache.ts); 0 or absent: none. */
  searchPageCacheBytes?: number;
  /**
   * Signs syncTokens. The servers pass the deployment's key (their configuration), so that every
   * instance and every replica accepts the tokens of the others; absent, the key the database
   * was created with (a store opened by a test or a benchmark).
   */
  syncTokenSecret?: Uint8Array;
}

export const DEFAULT_SEARCH_TIMEOUT_MS = 5000;

function syncTokenSecret(db: DatabaseSync): Uint8Array {
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
export function openSqliteCatalogStore(options: SqliteCatalogStoreOptions): CatalogStore {
  return openSqliteCatalogue(options).store;
}

/** The store and its writer connection, for the search replica (replica/), which writes rows as they are. */
export function openSqliteCatalogue(options: SqliteCatalogStoreOptions): {
  store: CatalogStore;
  db: DatabaseSync;
} {
  const db = openDatabase(options.databasePath);
  migrate(db);
  runOn(db, canonicaliseStoredEmails(SQLITE_DIALECT));
  setBeforeCommit(db, () => refreshStaleSearchDocuments(db));
  // Once per database; at 1M products about half a minute, in short transactions.
  backfillSearchDocuments(db);
  const pool = new SearchWorkerPool({
    databasePath: options.databasePath,
    size: options.searchWorkers ?? Math.min(4, Math.max(2, availableParallelism())),
    timeoutMs: options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
    ...(options.searchObserver === undefined ? {} : { observer: options.searchObserver }),
  });
  const records = sqliteRecordEngine(db);
  const store: CatalogStore = {
    products: new RecordProductStore(records, new SqliteProducts(db)),
    brands: new RecordBrandStore(records),
    webChannels: new RecordWebChannelStore(records),
    clients: new RecordClientStore(records),
    adminUsers: new RecordAdminUserStore(records),
    audit: new RecordAuditLog(records),
    changes: new RecordChangeFeed(records, new SqliteFeed(db)),
    productSearch: new SqliteProductSearch(
      pool,
      options.syncTokenSecret ?? syncTokenSecret(db),
      (options.searchPageCacheBytes ?? 0) > 0
        ? {
            cache: new SearchPageCache(options.searchPageCacheBytes as number),
            version: catalogueVersionReader(db),
            onHit: () => options.searchObserver?.pageCacheHit?.(),
          }
        : null,
    ),
    brandSearch: new SqliteBrandSearch(pool),
    loadIfEmpty: (snapshot) => loadIfEmpty(db, snapshot),
    compactSearchIndex: async () => compactFullTextIndex(db),
    close: async () => {
      await pool.close();
      if (db.isOpen) db.close();
    },
  };
  return { store, db };
}
