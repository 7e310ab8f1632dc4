import type { RecordStore } from '../../ports/catalog-store.ts';
import { loadIfEmpty } from './load-if-empty.ts';
import { migratePostgres } from './migrate.ts';
import { openPool, type PostgresConnectionOptions } from './open-pool.ts';
import { canonicaliseStoredEmails, PostgresAdminUserStore } from './postgres-admin-user-store.ts';
import { PostgresAuditLog } from './postgres-audit-log.ts';
import { PostgresBrandStore } from './postgres-brand-store.ts';
import { PostgresChangeFeed } from './postgres-change-feed.ts';
import { PostgresClientStore } from './postgres-client-store.ts';
import { PostgresProductStore } from './postgres-product-store.ts';
import { PostgresWebChannelStore } from './postgres-web-channel-store.ts';

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
  return {
    products: new PostgresProductStore(pool),
    brands: new PostgresBrandStore(pool),
    webChannels: new PostgresWebChannelStore(pool),
    clients: new PostgresClientStore(pool),
    adminUsers: new PostgresAdminUserStore(pool),
    audit: new PostgresAuditLog(pool),
    changes: new PostgresChangeFeed(pool),
    loadIfEmpty: (snapshot) => loadIfEmpty(pool, snapshot),
    // Idempotent, like the embedded store's: a second close is a no-op, not pg's error.
    close: () => {
      ended ??= pool.end();
      return ended;
    },
  };
}
