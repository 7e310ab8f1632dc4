import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { ProductRecord } from '../model/product.ts';
import type { UpsertSummary } from '../ports/product-store.ts';
import { changedFields, contextOf } from './audit-fields.ts';

/** What a replacement can change; seq, createdAt and updatedAt are the store's, not the writer's. */
function replaceableFields(record: ProductRecord): Array<keyof ProductRecord & string> {
  const fixed = new Set(['id', 'seq', 'createdAt', 'updatedAt', 'version']);
  return (Object.keys(record) as Array<keyof ProductRecord & string>).filter((name) => !fixed.has(name));
}

export function productCreatedEvent(
  context: AuditContext,
  product: Pick<ProductRecord, 'id' | 'productCode'>,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'product.create',
    target: { type: 'product', id: product.id },
    details: { productCode: product.productCode },
  };
}

/** Names the changed fields only: a product is large, and its values are in the catalogue itself. */
export function productReplacedEvent(
  context: AuditContext,
  before: ProductRecord,
  after: ProductRecord,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'product.replace',
    target: { type: 'product', id: after.id },
    changes: changedFields(before, after, replaceableFields(after), false),
  };
}

export function productArchivedEvent(
  context: AuditContext,
  product: Pick<ProductRecord, 'id'>,
): NewAuditEvent {
  return { ...contextOf(context), action: 'product.archive', target: { type: 'product', id: product.id } };
}

/** One event per imported batch, not per product: an import of a million products stays readable. */
export function importBatchEvent(context: AuditContext, summary: UpsertSummary): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'catalogue.import-batch',
    target: { type: 'catalogue', id: null },
    details: { created: summary.created, updated: summary.updated },
  };
}
