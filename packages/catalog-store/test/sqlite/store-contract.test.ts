import { adminUserStoreContract } from '../contract/admin-user-store.contract.ts';
import { auditLogContract } from '../contract/audit-log.contract.ts';
import { brandStoreContract } from '../contract/brand-store.contract.ts';
import { clientStoreContract } from '../contract/client-store.contract.ts';
import { productStoreContract } from '../contract/product-store.contract.ts';
import { recordVersionsContract } from '../contract/record-versions.contract.ts';
import { webChannelStoreContract } from '../contract/web-channel-store.contract.ts';
import { webhookStoreContract } from '../contract/webhook-store.contract.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';

productStoreContract(() => sqliteStore());
brandStoreContract(() => sqliteStore());
webChannelStoreContract(() => sqliteStore());
clientStoreContract(() => sqliteStore());
adminUserStoreContract(() => sqliteStore());
auditLogContract(() => sqliteStore());
recordVersionsContract(() => sqliteStore());
webhookStoreContract(() => sqliteStore());
