import type pg from 'pg';
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
import { bulkLoadBatches, bulkLoadProducts } from './bulk-load.ts';
import { readProducts } from './read-products.ts';
import { writeProduct } from './write-product.ts';

/** PostgreSQL's product SQL: writes on the rule's transaction client, reads in one joined query. */
export class PostgresProducts implements EngineProducts {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  write(input: ProductInput, at: number, mode: WriteMode): RecordWork<{ seq: number; created: boolean }> {
    return onConnection((client: pg.PoolClient) => writeProduct(client, input, at, mode));
  }

  read(seq: number): RecordWork<ProductRecord | undefined> {
    return onConnection(
      async (client: pg.PoolClient) => (await readProducts(client, 'p.seq = $1', [seq]))[0],
    );
  }

  async get(id: string): Promise<ProductRecord | undefined> {
    const [record] = await readProducts(this.#pool, 'p.id = $1', [id.toLowerCase()]);
    return record;
  }

  async getMany(ids: readonly string[]): Promise<ProductRecord[]> {
    return readProducts(this.#pool, 'p.id = ANY($1)', [ids.map((id) => id.toLowerCase())]);
  }

  async bulkLoad(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return bulkLoadProducts(this.#pool, inputs, audit);
  }

  async bulkLoadAll(batches: ProductBatches, options?: BulkLoadOptions): Promise<UpsertSummary> {
    return bulkLoadBatches(this.#pool, batches, options);
  }

  async listActive(options: { limit: number; afterSeq?: number }): Promise<ActiveProductsPage> {
    const rows = await readProducts(
      this.#pool,
      "p.status = 'active' AND p.seq > $1",
      [options.afterSeq ?? 0],
      options.limit + 1,
    );
    const products = rows.slice(0, options.limit);
    const last = products.at(-1);
    return {
      products,
      nextAfterSeq: rows.length > options.limit && last !== undefined ? last.seq : null,
    };
  }

  async findByCodes(lookup: CodeLookup): Promise<ProductRecord[]> {
    const keys = codeLookupKeys(lookup);
    return readProducts(
      this.#pool,
      `p.product_code_key = ANY($1) OR p.erp_code_key = ANY($2) OR (p.barcode = ANY($3) AND p.barcode <> '')`,
      [keys.productCodes, keys.erpCodes, keys.barcodes],
    );
  }

  async count(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>('SELECT count(*) AS n FROM products');
    return result.rows[0]?.n ?? 0;
  }
}
