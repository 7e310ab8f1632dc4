import type { ProductInput, ProductRecord } from '../model/product.ts';

export interface UpsertSummary {
  created: number;
  updated: number;
}

export interface ActiveProductsPage {
  products: ProductRecord[];
  /** Pass back as `afterSeq` for the next page; null on the last page. */
  nextAfterSeq: number | null;
}

export interface CodeLookup {
  productCodes?: string[];
  erpCodes?: string[];
  barcodes?: string[];
}

/** Every method is one transaction: it either fully applies or leaves nothing behind. */
export interface ProductStore {
  get(id: string): Promise<ProductRecord | undefined>;
  getMany(ids: readonly string[]): Promise<ProductRecord[]>;
  /** Creates a product; an `id` that already exists is a ValidationError. */
  create(input: ProductInput): Promise<ProductRecord>;
  /** Full replacement of an existing product (PUT); NotFoundError when absent. */
  replace(id: string, input: ProductInput): Promise<ProductRecord>;
  /** DELETE on the admin routes archives. */
  archive(id: string): Promise<ProductRecord>;
  /** Upserts a batch by id, all or nothing. */
  upsertMany(inputs: readonly ProductInput[]): Promise<UpsertSummary>;
  /** Status-active products in insertion order, for the deprecated GET /products. */
  listActive(options: { limit: number; afterSeq?: number }): Promise<ActiveProductsPage>;
  /** Products sharing any of the given codes (case- and accent-insensitive on the codes). */
  findByCodes(lookup: CodeLookup): Promise<ProductRecord[]>;
  count(): Promise<number>;
}
