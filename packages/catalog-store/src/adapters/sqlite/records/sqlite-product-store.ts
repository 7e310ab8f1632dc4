import type { DatabaseSync } from 'node:sqlite';
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
import { statement } from '../statement-cache.ts';
import { inWriteTransaction, transactionTime } from '../transaction.ts';
import { appendAuditEvent } from './append-audit-event.ts';
import { bulkLoadBatches } from './bulk-load-batches.ts';
import { bulkLoadProducts } from './bulk-load-products.ts';
import { readProductsBySeq } from './read-products.ts';
import { writeProduct } from './write-product.ts';

function keysOf(codes: readonly string[] | undefined): string[] {
  return (codes ?? []).map(identifierKey).filter((key) => key !== '');
}

export function writeProductBatch(
  db: DatabaseSync,
  inputs: readonly ProductInput[],
  audit?: AuditContext,
): UpsertSummary {
  return inWriteTransaction(db, () => {
    const ts = transactionTime(db);
    let created = 0;
    for (const input of inputs) if (writeProduct(db, input, ts, 'upsert').created) created += 1;
    const summary = { created, updated: inputs.length - created };
    if (audit !== undefined) appendAuditEvent(db, importBatchEvent(audit, summary));
    return summary;
  });
}

export class SqliteProductStore implements ProductStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #bySeq(seq: number): ProductRecord {
    const [record] = readProductsBySeq(this.#db, [seq]);
    if (record === undefined) throw new Error(`product seq ${seq} vanished inside its own transaction`);
    return record;
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

  async create(input: ProductInput, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#db, () => {
      const { seq } = writeProduct(this.#db, input, transactionTime(this.#db), 'create');
      const created = this.#bySeq(seq);
      if (audit !== undefined) appendAuditEvent(this.#db, productCreatedEvent(audit, created));
      return created;
    });
  }

  async replace(id: string, input: ProductInput, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#db, () => {
      const seq = audit === undefined ? undefined : this.#seqOf(id);
      const before = seq === undefined ? undefined : this.#bySeq(seq);
      const written = writeProduct(this.#db, { ...input, id }, transactionTime(this.#db), 'replace');
      const after = this.#bySeq(written.seq);
      // `before` is undefined only when the product is absent, and writeProduct has thrown then.
      if (audit !== undefined && before !== undefined) {
        appendAuditEvent(this.#db, productReplacedEvent(audit, before, after));
      }
      return after;
    });
  }

  async archive(id: string, audit?: AuditContext): Promise<ProductRecord> {
    return inWriteTransaction(this.#db, () => {
      const seq = this.#seqOf(id);
      if (seq === undefined) throw new NotFoundError('Product', id);
      statement(this.#db, 'UPDATE products SET archived = 1, updated_at = ? WHERE seq = ?').run(
        transactionTime(this.#db),
        seq,
      );
      const archived = this.#bySeq(seq);
      if (audit !== undefined) appendAuditEvent(this.#db, productArchivedEvent(audit, archived));
      return archived;
    });
  }

  async upsertMany(inputs: readonly ProductInput[], audit?: AuditContext): Promise<UpsertSummary> {
    return writeProductBatch(this.#db, inputs, audit);
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
    const rows = statement(
      this.#db,
      `SELECT seq FROM products WHERE product_code_key IN (SELECT value FROM json_each(?))
       UNION SELECT seq FROM products WHERE erp_code_key IN (SELECT value FROM json_each(?))
       UNION SELECT seq FROM products WHERE barcode IN (SELECT value FROM json_each(?)) AND barcode <> ''
       ORDER BY seq`,
    ).all(
      JSON.stringify(keysOf(lookup.productCodes)),
      JSON.stringify(keysOf(lookup.erpCodes)),
      JSON.stringify(lookup.barcodes ?? []),
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
