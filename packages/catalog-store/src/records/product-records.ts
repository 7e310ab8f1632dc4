import {
  importBatchEvent,
  productArchivedEvent,
  productCreatedEvent,
  productReplacedEvent,
} from '../audit/product-events.ts';
import { NotFoundError } from '../errors/request-errors.ts';
import type { AuditContext } from '../model/audit-event.ts';
import type { ProductInput, ProductRecord } from '../model/product.ts';
import type { UpsertSummary } from '../ports/product-store.ts';
import type { WriteMode } from '../write-rules/product-write.ts';
import { appendAuditEvent } from './audit-records.ts';
import { type RecordWork, row, transactionTime } from './record-work.ts';

/**
 * What each engine writes and reads of one product in its own SQL (SQLite's JSON-bound relations
 * and array-read rows, PostgreSQL's array parameters and joined read): the product rules below are
 * the same on both and run these inside their transaction.
 */
export interface ProductRows {
  /** Writes one product stamped `at` (write-rules decide the defaults, casing and relations). */
  write(input: ProductInput, at: number, mode: WriteMode): RecordWork<{ seq: number; created: boolean }>;
  /** The full record of a product, by its seq. */
  read(seq: number): RecordWork<ProductRecord | undefined>;
}

function* written(rows: ProductRows, seq: number): RecordWork<ProductRecord> {
  const record = yield* rows.read(seq);
  if (record === undefined) throw new Error(`product seq ${seq} vanished inside its own transaction`);
  return record;
}

function* seqOf(id: string): RecordWork<number | undefined> {
  return (yield* row<{ seq: number }>('SELECT seq FROM products WHERE id = ?', id.toLowerCase()))?.seq;
}

export function* createProduct(
  rows: ProductRows,
  input: ProductInput,
  audit?: AuditContext,
): RecordWork<ProductRecord> {
  const { seq } = yield* rows.write(input, yield* transactionTime(), 'create');
  const created = yield* written(rows, seq);
  if (audit !== undefined) yield* appendAuditEvent(productCreatedEvent(audit, created));
  return created;
}

export function* replaceProduct(
  rows: ProductRows,
  id: string,
  input: ProductInput,
  audit?: AuditContext,
): RecordWork<ProductRecord> {
  const seq = audit === undefined ? undefined : yield* seqOf(id);
  const before = seq === undefined ? undefined : yield* written(rows, seq);
  const after = yield* written(
    rows,
    (yield* rows.write({ ...input, id }, yield* transactionTime(), 'replace')).seq,
  );
  // `before` is undefined only when the product is absent, and the write has thrown then.
  if (audit !== undefined && before !== undefined)
    yield* appendAuditEvent(productReplacedEvent(audit, before, after));
  return after;
}

export function* archiveProduct(
  rows: ProductRows,
  id: string,
  audit?: AuditContext,
): RecordWork<ProductRecord> {
  const archived = yield* row<{ seq: number }>(
    'UPDATE products SET archived = ?, updated_at = ? WHERE id = ? RETURNING seq',
    1,
    yield* transactionTime(),
    id.toLowerCase(),
  );
  if (archived === undefined) throw new NotFoundError('Product', id);
  const record = yield* written(rows, archived.seq);
  if (audit !== undefined) yield* appendAuditEvent(productArchivedEvent(audit, record));
  return record;
}

/** Products written one by one in one transaction, all or nothing: `upsertMany`. */
export function* upsertProducts(
  rows: ProductRows,
  inputs: readonly ProductInput[],
  audit?: AuditContext,
): RecordWork<UpsertSummary> {
  const at = yield* transactionTime();
  let created = 0;
  for (const input of inputs) if ((yield* rows.write(input, at, 'upsert')).created) created += 1;
  const summary = { created, updated: inputs.length - created };
  if (audit !== undefined) yield* appendAuditEvent(importBatchEvent(audit, summary));
  return summary;
}
