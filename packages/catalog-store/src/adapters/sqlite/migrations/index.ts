import type { Migration } from '../../migration.ts';
import { initialSchema } from './0001-initial-schema.ts';
import { facetCounts } from './0002-facet-counts.ts';
import { ftsArchivedColumn } from './0003-fts-archived-column.ts';
import { ftsArchivedColumns } from './0004-fts-archived-columns.ts';
import { productFacetCombinations } from './0005-product-facet-combinations.ts';
import { productSearchDocuments } from './0006-product-search-documents.ts';
import { sortIndexesCoverArchived } from './0007-sort-indexes-cover-archived.ts';
import { auditEvents } from './0008-audit-events.ts';
import { changeFeed } from './0009-change-feed.ts';
import { recordVersions } from './0010-record-versions.ts';
import { webhooks } from './0011-webhooks.ts';
import { webhookClaimIndexes } from './0012-webhook-claim-indexes.ts';
import { webhookFinishedIndex } from './0013-webhook-finished-index.ts';
import { webhookDueOrderIndex } from './0014-webhook-due-order-index.ts';
import { webhookFewerIndexes } from './0015-webhook-fewer-indexes.ts';

export const MIGRATIONS: readonly Migration[] = [
  initialSchema,
  facetCounts,
  ftsArchivedColumn,
  ftsArchivedColumns,
  productFacetCombinations,
  productSearchDocuments,
  sortIndexesCoverArchived,
  auditEvents,
  changeFeed,
  recordVersions,
  webhooks,
  webhookClaimIndexes,
  webhookFinishedIndex,
  webhookDueOrderIndex,
  webhookFewerIndexes,
];
