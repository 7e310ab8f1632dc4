import { replacingVersion } from '../audit/audit-fields.ts';
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
import { checkVersion, type ExpectedVersion } from './expected-version.ts';
import { type RecordWork, row, run, transactionTime } from './record-work.ts';

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

/** The product's seq and version, checked against the version a conditional write expects. */
function* existing(id: string, expected: ExpectedVersion): RecordWork<{ seq: number; version: number }> {
  const found = yield* row<{ seq: number; version: number }>(
    'SELECT seq, version FROM products WHERE id = ?',
    id.toLowerCase(),
  );
  if (found === undefined) throw new NotFoundError('Product', id);
  checkVersion('Product', id, found.version, expected);
  return found;
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
  expected?: ExpectedVersion,
): RecordWork<ProductRecord> {
  const { seq } = yield* existing(id, expected);
  const before = audit === undefined ? undefined : yield* written(rows, seq);
  const after = yield* written(
    rows,
    (yield* rows.write({ ...input, id }, yield* transactionTime(), 'replace')).seq,
  );
  if (audit !== undefined && before !== undefined)
    yield* appendAuditEvent(replacingVersion(productReplacedEvent(audit, before, after), before.version));
  return after;
}

export function* archiveProduct(
  rows: ProductRows,
  id: string,
  audit?: AuditContext,
  expected?: ExpectedVersion,
): RecordWork<ProductRecord> {
  const { seq, version } = yield* existing(id, expected);
  yield* run(
    'UPDATE products SET archived = ?, updated_at = ?, version = version + 1 WHERE seq = ?',
    1,
    yield* transactionTime(),
    seq,
  );
  const record = yield* written(rows, seq);
  if (audit !== undefined)
    yield* appendAuditEvent(replacingVersion(productArchivedEvent(audit, record), version));
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
