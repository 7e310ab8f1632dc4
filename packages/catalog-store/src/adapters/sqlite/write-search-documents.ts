import type { DatabaseSync } from 'node:sqlite';
import { searchDocumentOf } from '../../model/search-document.ts';
import { readProductsBySeq } from './records/read-products.ts';
import { statement } from './statement-cache.ts';
import { inWriteTransaction } from './transaction.ts';

// Stored search documents (migration 6): rebuilt here, read by search/read-search-documents.ts.

/** Records are read this many at a time: one statement per table for each chunk. */
const CHUNK = 500;
const BACKFILLED = 'search_documents_backfilled';

function storeDocuments(db: DatabaseSync, seqs: readonly number[]): void {
  const insert = statement(
    db,
    'INSERT OR REPLACE INTO product_documents (seq, display_on_web, display_on_web_at, body) VALUES (?, ?, ?, ?)',
  );
  for (const record of readProductsBySeq(db, seqs)) {
    const document = searchDocumentOf(record);
    const flag = document.displayOnWeb === null ? null : Number(document.displayOnWeb);
    insert.run(record.seq, flag, document.displayOnWebAt, document.body);
  }
}

/**
 * Writes the documents of the products with seq in [first, last], inside the caller's transaction:
 * for a load that inserted them with the triggers that would have queued them suspended.
 */
export function writeSearchDocuments(db: DatabaseSync, first: number, last: number): void {
  for (let from = first; from <= last; from += CHUNK) {
    const to = Math.min(last, from + CHUNK - 1);
    storeDocuments(
      db,
      Array.from({ length: to - from + 1 }, (_, i) => from + i),
    );
  }
}

/**
 * Rebuilds the documents the triggers queued during the current write transaction, inside it
 * (transaction.ts runs this before every commit). A queued product that no longer exists just
 * leaves the queue.
 */
export function refreshStaleSearchDocuments(db: DatabaseSync): void {
  for (;;) {
    const rows = statement(db, 'SELECT seq FROM product_documents_stale ORDER BY seq LIMIT ?').all(
      CHUNK,
    ) as Array<{ seq: number }>;
    if (rows.length === 0) return;
    const seqs = rows.map((row) => row.seq);
    storeDocuments(db, seqs);
    statement(db, 'DELETE FROM product_documents_stale WHERE seq IN (SELECT value FROM json_each(?))').run(
      JSON.stringify(seqs),
    );
  }
}

/**
 * Writes the documents of products that have none: the products that were there when migration 6
 * ran. Each batch is its own short write transaction, so other writers get the lock in between
 * and an interrupted backfill resumes where it stopped. Done once per database (recorded in meta).
 */
export function backfillSearchDocuments(db: DatabaseSync, batchSize = 2000): number {
  if (statement(db, 'SELECT 1 FROM meta WHERE key = ?').get(BACKFILLED) !== undefined) return 0;
  let after = 0;
  let written = 0;
  for (;;) {
    const seqs = inWriteTransaction(db, () => {
      const rows = statement(
        db,
        `SELECT p.seq FROM products p
         WHERE p.seq > ? AND NOT EXISTS (SELECT 1 FROM product_documents d WHERE d.seq = p.seq)
         ORDER BY p.seq LIMIT ?`,
      ).all(after, batchSize) as Array<{ seq: number }>;
      const found = rows.map((row) => row.seq);
      if (found.length > 0) {
        for (let i = 0; i < found.length; i += CHUNK) storeDocuments(db, found.slice(i, i + CHUNK));
      } else {
        statement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
          BACKFILLED,
          new Date().toISOString(),
        );
      }
      return found;
    });
    if (seqs.length === 0) return written;
    written += seqs.length;
    after = seqs.at(-1) as number;
  }
}
