import type { RecordStore } from '../../ports/catalog-store.ts';
import { RecordAuditLog } from '../../records/record-audit-log.ts';
import { RecordClientStore } from '../../records/record-client-store.ts';
import { loadIfEmpty } from './load-if-empty.ts';
import { migratePostgres } from './migrate.ts';
import { openPool, type PostgresConnectionOptions } from './open-pool.ts';
import { canonicaliseStoredEmails, PostgresAdminUserStore } from './postgres-admin-user-store.ts';
import { PostgresBrandStore } from './postgres-brand-store.ts';
import { PostgresChangeFeed } from './postgres-change-feed.ts';
import { PostgresProductStore } from './postgres-product-store.ts';
import { PostgresWebChannelStore } from './postgres-web-channel-store.ts';
import { postgresRecordEngine } from './records/postgres-record-engine.ts';

export type PostgresRecordStoreOptions = PostgresConnectionOptions;

/** Opens the records of a PostgreSQL deployment, migrating its schema first when needed. */
export async function openPostgresRecordStore(options: PostgresRecordStoreOptions): Promise<RecordStore> {
  const pool = openPool(options);
  try {
    await migratePostgres(pool);
    await canonicaliseStoredEmails(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let ended: Promise<void> | undefined;
  const records = postgresRecordEngine(pool);
  return {
    products: new PostgresProductStore(pool),
    brands: new PostgresBrandStore(pool),
    webChannels: new PostgresWebChannelStore(pool),
    clients: new RecordClientStore(records),
    adminUsers: new PostgresAdminUserStore(pool),
    audit: new RecordAuditLog(records),
    changes: new PostgresChangeFeed(pool),
    loadIfEmpty: (snapshot) => loadIfEmpty(pool, snapshot),
    // Idempotent, like the embedded store's: a second close is a no-op, not pg's error.
    close: () => {
      ended ??= pool.end();
      return ended;
    },
  };
}
