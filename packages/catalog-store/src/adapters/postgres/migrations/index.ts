import type { Migration } from '../../migration.ts';
import { initialSchema } from './0001-initial-schema.ts';
import { signingKeySet } from './0002-signing-key-set.ts';
import { adminEmailExact } from './0003-admin-email-exact.ts';
import { recordVersions } from './0004-record-versions.ts';
import { webhooks } from './0005-webhooks.ts';
import { webhookClaimIndexes } from './0006-webhook-claim-indexes.ts';
import { webhookFinishedIndex } from './0007-webhook-finished-index.ts';
import { webhookDueOrderIndex } from './0008-webhook-due-order-index.ts';
import { webhookFewerIndexes } from './0009-webhook-fewer-indexes.ts';

export const MIGRATIONS: readonly Migration[] = [
  initialSchema,
  signingKeySet,
  adminEmailExact,
  recordVersions,
  webhooks,
  webhookClaimIndexes,
  webhookFinishedIndex,
  webhookDueOrderIndex,
  webhookFewerIndexes,
];
