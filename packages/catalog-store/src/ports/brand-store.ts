import type { Brand, BrandInput, BrandPatch, BrandWithProductCount } from '../model/brand.ts';

export interface BrandStore {
  list(options?: { includeArchived?: boolean }): Promise<Brand[]>;
  get(id: string): Promise<Brand | undefined>;
  getBySlug(slug: string): Promise<Brand | undefined>;
  create(input: BrandInput): Promise<Brand>;
  /** A rename or re-slug is copied onto the brand's products and bumps their updatedAt. */
  update(id: string, patch: BrandPatch): Promise<Brand>;
  archive(id: string): Promise<Brand>;
  overview(): Promise<BrandWithProductCount[]>;
}
