import type { DatabaseSync } from 'node:sqlite';
import type { AuditContext } from '../../../model/audit-event.ts';
import type { ProductInput, ProductRecord } from '../../../model/product.ts';
import type {
  ActiveProductsPage,
  BulkLoadOptions,
  CodeLookup,
  ProductBatches,
  UpsertSummary,
} from '../../../ports/product-store.ts';
import { codeLookupKeys } from '../../../records/code-lookup-keys.ts';
import type { EngineProducts } from '../../../records/record-product-store.ts';
import { onConnection, type RecordWork } from '../../../records/record-work.ts';
import type { WriteMode } from '../../../write-rules/product-write.ts';
import { statement } from '../statement-cache.ts';
import { bulkLoadBatches } from './bulk-load-batches.ts';
import { bulkLoadProducts } from './bulk-load-products.ts';
import { readProductsBySeq } from './read-products.ts';
import { writeProduct } from './write-product.ts';

/** SQLite's product SQL: writes and reads on the one connection, synchronously. */
export class SqliteProducts implements EngineProducts {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  write(input: ProductInput, at: number, mode: WriteMode): RecordWork<{ seq: number; created: boolean }> {
    return onConnection((db: DatabaseSync) => writeProduct(db, input, at, mode));
  }

  read(seq: number): RecordWork<ProductRecord | undefined> {
    return onConnection((db: DatabaseSync) => readProductsBySeq(db, [seq])[0]);
  }

  #seqOf(id: string): number | undefined {
    const row = statement(this.#db, 'SELECT seq FROM products WHERE id = ?').get(id.toLowerCase()) as
      | { seq: number }
      | undefined;
    return row?.seq;
  }

  async get(id: string): Promise<ProductRecord | undefined> {
    const seq = this.#seqOf(id);
    return seq === undefined ? undefined : readProductsBySeq(this.#db, [seq])[0];
  }

  async getMany(ids: readonly string[]): Promise<ProductRecord[]> {
    const rows = statement(
      this.#db,
      'SELECT seq FROM products WHERE id IN (SELECT lower(value) FROM json_each(?)) ORDER BY seq',
    ).all(JSON.stringify(ids)) as Array<{ seq: number }>;
    return readProductsBySeq(
      this.#db,
      rows.map((row) => row.seq),
    );
  }

  async bulkLoad(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return bulkLoadProducts(this.#db, inputs, audit);
  }

  async bulkLoadAll(batches: ProductBatches, options?: BulkLoadOptions): Promise<UpsertSummary> {
    return bulkLoadBatches(this.#db, batches, options);
  }

  async listActive(options: { limit: number; afterSeq?: number }): Promise<ActiveProductsPage> {
    const rows = statement(
      this.#db,
      "SELECT seq FROM products WHERE status = 'active' AND seq > ? ORDER BY seq LIMIT ?",
    ).all(options.afterSeq ?? 0, options.limit + 1) as Array<{ seq: number }>;
    const page = rows.slice(0, options.limit).map((row) => row.seq);
    const last = page.at(-1);
    return {
      products: readProductsBySeq(this.#db, page),
      nextAfterSeq: rows.length > options.limit && last !== undefined ? last : null,
    };
  }

  async findByCodes(lookup: CodeLookup): Promise<ProductRecord[]> {
    const keys = codeLookupKeys(lookup);
    const rows = statement(
      this.#db,
      `SELECT seq FROM products WHERE product_code_key IN (SELECT value FROM json_each(?))
       UNION SELECT seq FROM products WHERE erp_code_key IN (SELECT value FROM json_each(?))
       UNION SELECT seq FROM products WHERE barcode IN (SELECT value FROM json_each(?)) AND barcode <> ''
       ORDER BY seq`,
    ).all(
      JSON.stringify(keys.productCodes),
      JSON.stringify(keys.erpCodes),
      JSON.stringify(keys.barcodes),
    ) as Array<{ seq: number }>;
    return readProductsBySeq(
      this.#db,
      rows.map((row) => row.seq),
    );
  }

  async count(): Promise<number> {
    return (statement(this.#db, 'SELECT count(*) AS n FROM products').get() as { n: number }).n;
  }
}
