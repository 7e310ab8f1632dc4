import type { AuditContext } from '../model/audit-event.ts';
import type { ProductInput, ProductRecord } from '../model/product.ts';
import type {
  ActiveProductsPage,
  BulkLoadOptions,
  CodeLookup,
  ProductBatches,
  ProductStore,
  UpsertSummary,
} from '../ports/product-store.ts';
import type { ExpectedVersion } from './expected-version.ts';
import {
  archiveProduct,
  createProduct,
  type ProductRows,
  replaceProduct,
  upsertProducts,
} from './product-records.ts';
import type { RecordEngine } from './record-engine.ts';

/**
 * What each engine does with products its own way: reads planned for its indexes (SQLite through
 * its record cache by seq, PostgreSQL in one joined query) and bulk loads (SQLite with insert
 * triggers suspended, PostgreSQL with COPY).
 */
export type EngineProducts = ProductRows &
  Pick<ProductStore, 'get' | 'getMany' | 'listActive' | 'findByCodes' | 'count' | 'bulkLoad' | 'bulkLoadAll'>;

/** The products on either record engine: the writes are the product rules, the rest the engine's. */
export class RecordProductStore implements ProductStore {
  readonly #engine: RecordEngine;
  readonly #products: EngineProducts;

  constructor(engine: RecordEngine, products: EngineProducts) {
    this.#engine = engine;
    this.#products = products;
  }

  get(id: string): Promise<ProductRecord | undefined> {
    return this.#products.get(id);
  }

  getMany(ids: readonly string[]): Promise<ProductRecord[]> {
    return this.#products.getMany(ids);
  }

  create(input: ProductInput, audit?: AuditContext): Promise<ProductRecord> {
    return this.#engine.write(() => createProduct(this.#products, input, audit));
  }

  replace(
    id: string,
    input: ProductInput,
    audit?: AuditContext,
    expected?: ExpectedVersion,
  ): Promise<ProductRecord> {
    return this.#engine.write(() => replaceProduct(this.#products, id, input, audit, expected));
  }

  archive(id: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<ProductRecord> {
    return this.#engine.write(() => archiveProduct(this.#products, id, audit, expected));
  }

  upsertMany(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return this.#engine.write(() => upsertProducts(this.#products, inputs, audit));
  }

  bulkLoad(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return this.#products.bulkLoad(inputs, audit);
  }

  bulkLoadAll(batches: ProductBatches, options?: BulkLoadOptions): Promise<UpsertSummary> {
    return this.#products.bulkLoadAll(batches, options);
  }

  listActive(options: { limit: number; afterSeq?: number }): Promise<ActiveProductsPage> {
    return this.#products.listActive(options);
  }

  findByCodes(lookup: CodeLookup): Promise<ProductRecord[]> {
    return this.#products.findByCodes(lookup);
  }

  count(): Promise<number> {
    return this.#products.count();
  }
}
