import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { SnapshotBatch } from '../../../model/change.ts';
import type { ProductRecord } from '../../../model/product.ts';
import type { SnapshotLoadProgress } from '../../../model/replica-progress.ts';
import type { BrandRef } from '../../../write-rules/brand-rules.ts';
import { COUNT_NEW_FACETS, INDEX_NEW_TEXT } from '../records/derive-new-rows.ts';
import { restoreSchemaObjects, suspendInsertTriggers } from '../records/insert-triggers.ts';
import { raiseCacheForLoad } from '../records/load-cache.ts';
import { catalogueIsEmpty, EMPTY_LOAD_CACHE_KIB } from '../records/load-empty-catalogue.ts';
import { dropSecondaryIndexes } from '../records/secondary-indexes.ts';
import { statement } from '../statement-cache.ts';
import { inLongWriteTransaction } from '../transaction.ts';
import { writeSearchDocuments } from '../write-search-documents.ts';
import {
  appliedSequence,
  applyBrands,
  applyChannel,
  INSERT_WITH_SEQ,
  insertForwardRelations,
  insertVisibility,
  replicatedValues,
  setAppliedSequence,
} from './apply-records.ts';

/** Documents are written for this many products at a time, so a gap in seq costs no empty reads. */
const DOCUMENT_CHUNK = 500;

/** The replica's own seq of each brand, by slug: the products rows link to it. */
function localBrandSeqs(db: DatabaseSync): Map<string, number> {
  const rows = statement(db, 'SELECT slug, seq FROM brands').all() as Array<{ slug: string; seq: number }>;
  return new Map(rows.map((row) => [row.slug, row.seq]));
}

function insertProduct(db: DatabaseSync, record: ProductRecord, brandSeqs: Map<string, number>): void {
  const brand: BrandRef | null =
    record.brandSlug === ''
      ? null
      : {
          // A product keeps its brand's name and slug, all a search reads, even without the link.
          seq: brandSeqs.get(record.brandSlug) ?? (null as unknown as number),
          name: record.brandName,
          slug: record.brandSlug,
        };
  statement(db, INSERT_WITH_SEQ).run(
    record.seq,
    record.id,
    Date.parse(record.createdAt),
    record.version,
    ...replicatedValues(record, brand),
  );
  insertForwardRelations(db, record);
  insertVisibility(db, record);
}

/**
 * What the suspended insert triggers would have written for every product, once: the full-text
 * rows and facet tables in set-based statements over the whole seq range, then each stored
 * document, chunk by chunk of the seqs that exist. Not the replica's own change-feed entries: no
 * one reads a replica's feed. Between chunks the event loop runs, so that the instance building
 * its replica still answers its probes and reports its progress.
 */
async function deriveRows(db: DatabaseSync, onDocuments: (written: number) => void): Promise<void> {
  const { first, last } = statement(db, 'SELECT min(seq) AS first, max(seq) AS last FROM products').get() as {
    first: number | null;
    last: number | null;
  };
  if (first === null || last === null) return;
  for (const sql of [INDEX_NEW_TEXT, ...COUNT_NEW_FACETS]) statement(db, sql).run(first, last);
  const chunk = statement(db, 'SELECT seq FROM products WHERE seq > ? ORDER BY seq LIMIT ?');
  for (let after = 0, written = 0; ; ) {
    const seqs = chunk.all(after, DOCUMENT_CHUNK) as Array<{ seq: number }>;
    if (seqs.length === 0) return;
    after = seqs.at(-1)?.seq as number;
    writeSearchDocuments(db, seqs[0]?.seq as number, after);
    written += seqs.length;
    onDocuments(written);
    await yieldToEventLoop();
  }
}

/**
 * Fills an empty replica from a snapshot of its whole source (ChangeFeed.readSnapshot) with the
 * embedded engine's empty-catalogue path (load-empty-catalogue.ts): insert triggers and secondary
 * indexes dropped inside one transaction, the rows inserted at the ends of their B-trees, each
 * index built once, the triggers' rows derived once. The rows are the source's as they are (seq,
 * ids, times, relations, visibility), as applyRecords writes them, and the applied sequence moves
 * to the snapshot's `through` in the same transaction.
 *
 * One transaction, so an error or a kill -9 anywhere leaves the replica empty at applied sequence
 * 0, with its whole schema: its next start loads it again. Nothing else writes to the replica
 * while it loads (its follower runs one catch-up at a time) and its searches see it empty until
 * the commit, which the instance waits for before it answers.
 */
export async function loadSnapshot(
  db: DatabaseSync,
  snapshot: AsyncIterable<SnapshotBatch>,
  onProgress: (progress: SnapshotLoadProgress) => void = () => undefined,
): Promise<void> {
  const { cache_size: cacheSize } = db.prepare('PRAGMA cache_size').get() as { cache_size: number };
  raiseCacheForLoad(db, EMPTY_LOAD_CACHE_KIB);
  try {
    await inLongWriteTransaction(db, async () => {
      if (appliedSequence(db) !== 0 || !catalogueIsEmpty(db)) {
        throw new Error('a snapshot is loaded only into an empty replica');
      }
      const triggers = suspendInsertTriggers(db);
      const indexes = dropSecondaryIndexes(db);
      let through = 0;
      let total = 0;
      let loaded = 0;
      let brandSeqs = new Map<string, number>();
      for await (const batch of snapshot) {
        through = batch.through;
        total = batch.productCount;
        for (const channel of batch.webChannels) applyChannel(db, channel);
        if (batch.brands.length > 0) {
          applyBrands(db, batch.brands);
          brandSeqs = localBrandSeqs(db);
        }
        for (const record of batch.products) insertProduct(db, record, brandSeqs);
        loaded += batch.products.length;
        onProgress({ phase: 'loading', products: loaded, total });
      }
      onProgress({ phase: 'indexing', products: 0, total });
      restoreSchemaObjects(db, indexes);
      await deriveRows(db, (written) => onProgress({ phase: 'indexing', products: written, total }));
      restoreSchemaObjects(db, triggers);
      setAppliedSequence(db, through);
    });
  } finally {
    // The connection goes on applying the feed a batch at a time: its usual cache is enough.
    db.exec(`PRAGMA cache_size = ${cacheSize}`);
  }
  // The load went through the WAL, which SQLite would otherwise leave as large as the catalogue.
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}
