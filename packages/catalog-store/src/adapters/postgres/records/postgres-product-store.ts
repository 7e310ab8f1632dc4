import type pg from 'pg';
import {
  importBatchEvent,
  productArchivedEvent,
  productCreatedEvent,
  productReplacedEvent,
} from '../../../audit/product-events.ts';
import { NotFoundError } from '../../../errors/request-errors.ts';
import type { AuditContext } from '../../../model/audit-event.ts';
import type { ProductInput, ProductRecord } from '../../../model/product.ts';
import type {
  ActiveProductsPage,
  BulkLoadOptions,
  CodeLookup,
  ProductBatches,
  ProductStore,
  UpsertSummary,
} from '../../../ports/product-store.ts';
import { identifierKey } from '../../../search/identifier-key.ts';
import { inWriteTransaction } from '../transaction.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import { bulkLoadBatches, bulkLoadProducts } from './bulk-load.ts';
import { readProductBySeq, readProducts } from './read-products.ts';
import { writeProduct } from './write-product.ts';

function keysOf(codes: readonly string[] | undefined): string[] {
  return (codes ?? []).map(identifierKey).filter((key) => key !== '');
}

export class PostgresProductStore implements ProductStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async get(id: string): Promise<ProductRecord | undefined> {
    const [record] = await readProducts(this.#pool, 'p.id = $1', [id.toLowerCase()]);
    return record;
  }

  async getMany(ids: readonly string[]): Promise<ProductRecord[]> {
    return readProducts(this.#pool, 'p.id = ANY($1)', [ids.map((id) => id.toLowerCase())]);
  }

  async create(input: ProductInput, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const { seq } = await writeProduct(client, input, ts, 'create');
      const created = await readProductBySeq(client, seq);
      if (audit !== undefined) await appendAuditEvent(client, productCreatedEvent(audit, created), ts);
      return created;
    });
  }

  async replace(id: string, input: ProductInput, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const [before] = audit === undefined ? [] : await readProducts(client, 'p.id = $1', [id.toLowerCase()]);
      const written = await writeProduct(client, { ...input, id }, ts, 'replace');
      const after = await readProductBySeq(client, written.seq);
      // `before` is undefined only when the product is absent, and writeProduct has thrown then.
      if (audit !== undefined && before !== undefined) {
        await appendAuditEvent(client, productReplacedEvent(audit, before, after), ts);
      }
      return after;
    });
  }

  async archive(id: string, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      const updated = await client.query<{ seq: number }>(
        'UPDATE products SET archived = true, updated_at = $1 WHERE id = $2 RETURNING seq',
        [ts, id.toLowerCase()],
      );
      const seq = updated.rows[0]?.seq;
      if (seq === undefined) throw new NotFoundError('Product', id);
      const archived = await readProductBySeq(client, seq);
      if (audit !== undefined) await appendAuditEvent(client, productArchivedEvent(audit, archived), ts);
      return archived;
    });
  }

  async upsertMany(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return inWriteTransaction(this.#pool, async (client, ts) => {
      let created = 0;
      for (const input of inputs) if ((await writeProduct(client, input, ts, 'upsert')).created) created += 1;
      const summary = { created, updated: inputs.length - created };
      if (audit !== undefined) await appendAuditEvent(client, importBatchEvent(audit, summary), ts);
      return summary;
    });
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
    return readProducts(
      this.#pool,
      `p.product_code_key = ANY($1) OR p.erp_code_key = ANY($2) OR (p.barcode = ANY($3) AND p.barcode <> '')`,
      [keysOf(lookup.productCodes), keysOf(lookup.erpCodes), lookup.barcodes ?? []],
    );
  }

  async count(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>('SELECT count(*) AS n FROM products');
    return result.rows[0]?.n ?? 0;
  }
}
