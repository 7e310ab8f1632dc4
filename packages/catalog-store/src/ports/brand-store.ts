import type { AuditContext } from '../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../model/brand.ts';

export interface BrandStore {
  list(options?: { includeArchived?: boolean }): Promise<Brand[]>;
  get(id: string): Promise<Brand | undefined>;
  getBySlug(slug: string): Promise<Brand | undefined>;
  /** With `audit`, appends the write's audit event in the same transaction (so for every write). */
  create(input: BrandInput, audit?: AuditContext): Promise<Brand>;
  /** A rename or re-slug is copied onto the brand's products and bumps their updatedAt. */
  update(id: string, patch: BrandPatch, audit?: AuditContext): Promise<Brand>;
  archive(id: string, audit?: AuditContext): Promise<Brand>;
  overview(): Promise<BrandWithProductCount[]>;
}
