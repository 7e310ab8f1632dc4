import type { RecordStore } from '../../ports/catalog-store.ts';
import { canonicaliseStoredEmails } from '../../records/admin-user-records.ts';
import { RecordAdminUserStore } from '../../records/record-admin-user-store.ts';
import { RecordAuditLog } from '../../records/record-audit-log.ts';
import { RecordBrandStore } from '../../records/record-brand-store.ts';
import { RecordChangeFeed } from '../../records/record-change-feed.ts';
import { RecordClientStore } from '../../records/record-client-store.ts';
import { RecordProductStore } from '../../records/record-product-store.ts';
import { RecordWebChannelStore } from '../../records/record-web-channel-store.ts';
import { RecordWebhookStore } from '../../records/record-webhook-store.ts';
import { migratePostgres } from './migrate.ts';
import { openPool, type PostgresConnectionOptions } from './open-pool.ts';
import { loadIfEmpty } from './records/load-if-empty.ts';
import { PostgresFeed } from './records/postgres-feed.ts';
import { PostgresProducts } from './records/postgres-products.ts';
import { postgresRecordEngine } from './records/postgres-record-engine.ts';

export type PostgresRecordStoreOptions = PostgresConnectionOptions;

/** Opens the records of a PostgreSQL deployment, migrating its schema first when needed. */
export async function openPostgresRecordStore(options: PostgresRecordStoreOptions): Promise<RecordStore> {
  const pool = openPool(options);
  const records = postgresRecordEngine(pool);
  try {
    await migratePostgres(pool);
    await records.direct(() => canonicaliseStoredEmails(records.dialect));
  } catch (error) {
    await pool.end();
    throw error;
  }
  let ended: Promise<void> | undefined;
  return {
    products: new RecordProductStore(records, new PostgresProducts(pool)),
    brands: new RecordBrandStore(records),
    webChannels: new RecordWebChannelStore(records),
    clients: new RecordClientStore(records),
    adminUsers: new RecordAdminUserStore(records),
    audit: new RecordAuditLog(records),
    changes: new RecordChangeFeed(records, new PostgresFeed(pool)),
    webhooks: new RecordWebhookStore(records),
    loadIfEmpty: (snapshot) => loadIfEmpty(pool, snapshot),
    // Idempotent, like the embedded store's: a second close is a no-op, not pg's error.
    close: () => {
      ended ??= pool.end();
      return ended;
    },
  };
}
