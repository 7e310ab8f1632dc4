import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { Brand } from '../model/brand.ts';
import { changedFields, contextOf } from './audit-fields.ts';

type BrandFacts = Pick<Brand, 'id' | 'name' | 'slug' | 'archived'>;

export function brandCreatedEvent(context: AuditContext, brand: BrandFacts): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'brand.create',
    target: { type: 'brand', id: brand.id },
    details: { name: brand.name, slug: brand.slug },
  };
}

export function brandUpdatedEvent(
  context: AuditContext,
  before: BrandFacts,
  after: BrandFacts,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'brand.update',
    target: { type: 'brand', id: after.id },
    changes: changedFields(before, after, ['name', 'slug', 'archived'], true),
  };
}

export function brandArchivedEvent(context: AuditContext, brand: Pick<Brand, 'id'>): NewAuditEvent {
  return { ...contextOf(context), action: 'brand.archive', target: { type: 'brand', id: brand.id } };
}
