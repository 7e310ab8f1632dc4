export interface Brand {
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
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
