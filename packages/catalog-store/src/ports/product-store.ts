import type { AuditContext } from '../model/audit-event.ts';
import type { ProductInput, ProductRecord } from '../model/product.ts';
import type { ExpectedVersion } from '../records/expected-version.ts';

export interface UpsertSummary {
  created: number;
  updated: number;
}

/** Batches of products to load, produced as the load goes (a generator, a file read batch by batch). */
export type ProductBatches = Iterable<readonly ProductInput[]> | AsyncIterable<readonly ProductInput[]>;

export interface LoadedBatch extends UpsertSummary {
  /**
   * False while the batch waits, written, for the commit of a load that is one transaction (an
   * empty catalogue's): a failure before that commit leaves it unwritten.
   */
  committed: boolean;
}

export interface BulkLoadOptions {
  /** One 'catalogue.import-batch' event per batch, in the transaction that writes it. */
  audit?: AuditContext;
  onBatch?: (batch: LoadedBatch) => void;
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

/**
 * Every method is one transaction: it either fully applies or leaves nothing behind. A write given
 * an `AuditContext` appends its audit event in that same transaction.
 */
export interface ProductStore {
  get(id: string): Promise<ProductRecord | undefined>;
  getMany(ids: readonly string[]): Promise<ProductRecord[]>;
  /** Creates a product; an `id` that already exists is a ValidationError. */
  create(input: ProductInput, audit?: AuditContext): Promise<ProductRecord>;
  /**
   * Full replacement of an existing product (PUT); NotFoundError when absent. With `expected`, a
   * PreconditionFailedError, and nothing written, unless the product is still at that version.
   */
  replace(
    id: string,
    input: ProductInput,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<ProductRecord>;
  /** DELETE on the admin routes archives; `expected` as for `replace`. */
  archive(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<ProductRecord>;
  /** Upserts a batch by id, all or nothing; with `audit`, one 'catalogue.import-batch' event per call. */
  upsertMany(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary>;
  /**
   * The same result as `upsertMany` for the same inputs (all or nothing, one transaction, the same
   * 'catalogue.import-batch' event with `audit`), made for loading batches of thousands of products,
   * most of them new: seed and import call it once per batch. Each input is checked against the
   * contract's schema first. An adapter may write the rows first and what they imply (search index,
   * derived relations, documents) once per batch, as long as it commits the same state.
   */
  bulkLoad(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary>;
  /**
   * Loads batch after batch as `bulkLoad` loads one (seed and import). Into an empty catalogue an
   * adapter may write the whole load as one transaction, all or nothing, and build its indexes
   * after the rows; the committed state is then that of one `upsertMany` of every product in
   * order. Otherwise each batch is its own transaction and the first that fails stops the load,
   * the batches before it committed. Resolves with the totals; rejects with the failure.
   */
  bulkLoadAll(batches: ProductBatches, options?: BulkLoadOptions): Promise<UpsertSummary>;
  /** Status-active products in insertion order, for the deprecated GET /products. */
  listActive(options: { limit: number; afterSeq?: number }): Promise<ActiveProductsPage>;
  /** Products sharing any of the given codes (case- and accent-insensitive on the codes). */
  findByCodes(lookup: CodeLookup): Promise<ProductRecord[]>;
  count(): Promise<number>;
}
