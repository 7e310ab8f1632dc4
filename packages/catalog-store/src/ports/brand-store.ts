import type { AuditContext } from '../model/audit-event.ts';
import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../model/brand.ts';
import type { ExpectedVersion } from '../records/expected-version.ts';

export interface BrandStore {
  list(options?: { includeArchived?: boolean }): Promise<Brand[]>;
  get(id: string): Promise<Brand | undefined>;
  getBySlug(slug: string): Promise<Brand | undefined>;
  /** With `audit`, appends the write's audit event in the same transaction (so for every write). */
  create(input: BrandInput, audit?: AuditContext): Promise<Brand>;
  /**
   * A rename or re-slug is copied onto the brand's products and bumps their updatedAt and version.
   * With `expected`, a PreconditionFailedError, and nothing written, unless the brand is still at
   * that version (so for `archive`).
   */
  update(id: string, patch: BrandPatch, audit?: AuditContext, expected?: ExpectedVersion): Promise<Brand>;
  archive(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<Brand>;
  overview(): Promise<BrandWithProductCount[]>;
}
