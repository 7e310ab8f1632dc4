import { adminUserStoreContract } from '../contract/admin-user-store.contract.ts';
import { auditLogContract } from '../contract/audit-log.contract.ts';
import { brandStoreContract } from '../contract/brand-store.contract.ts';
import { clientStoreContract } from '../contract/client-store.contract.ts';
import { recordVersionsContract } from '../contract/record-versions.contract.ts';
import { webChannelStoreContract } from '../contract/web-channel-store.contract.ts';
import { webhookStoreContract } from '../contract/webhook-store.contract.ts';
import { postgresStore } from '../support/postgres-factory.ts';

brandStoreContract(postgresStore);
webChannelStoreContract(postgresStore);
clientStoreContract(postgresStore);
adminUserStoreContract(postgresStore);
auditLogContract(postgresStore);
recordVersionsContract(postgresStore);
webhookStoreContract(postgresStore);
