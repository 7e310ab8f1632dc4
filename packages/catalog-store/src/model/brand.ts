export interface Brand {
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
  /** 1 when created, one more with every write (the ETag's source). */
  version: number;
}

export interface BrandInput {
  name: string;
  /** Derived from the name when absent. */
  slug?: string;
}

export interface BrandPatch {
  name?: string;
  slug?: string;
  archived?: boolean;
}

export interface BrandWithProductCount {
  brand: Brand;
  productCount: number;
}
