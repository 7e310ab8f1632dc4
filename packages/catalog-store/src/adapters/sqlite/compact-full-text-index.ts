import type { DatabaseSync } from 'node:sqlite';
import { inWriteTransaction } from './transaction.ts';

/** The product index's 'optimize' command, shared with store migration 7. */
export const MERGE_PRODUCT_FTS = "INSERT INTO product_fts (product_fts) VALUES ('optimize')";

/**
 * Merges the product index into one segment. Every write transaction adds a segment and FTS5
 * merges them only level by level, so a bulk load of 1M products in batches of 1,000 leaves ten.
 * Streaming a term's matches hardly notices, but looking up whether one product matches (the
 * sorted walks of search/text-buckets.ts) searches every segment: 11 µs a lookup with ten, 3 µs
 * with one. About 4 s at 1M products; readers go on meanwhile (WAL), writers wait.
 */
export function compactFullTextIndex(db: DatabaseSync): void {
  inWriteTransaction(db, () => db.exec(MERGE_PRODUCT_FTS));
}
