import type { DatabaseSync } from 'node:sqlite';
import type { SnapshotBatch } from '../../../model/change.ts';
import type { ProductRecord } from '../../../model/product.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from '../../../records/brand-row.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from '../../../records/web-channel-row.ts';
import { openDatabase } from '../open-database.ts';
import { statement } from '../statement-cache.ts';
import { feedHead } from './feed-head.ts';
import { readProductsBySeq } from './read-products.ts';

function productsAfter(db: DatabaseSync, after: number, limit: number): ProductRecord[] {
  const seqs = statement(db, 'SELECT seq FROM products WHERE seq > ? ORDER BY seq LIMIT ?').all(
    after,
    limit,
  ) as Array<{ seq: number }>;
  const records = readProductsBySeq(
    db,
    seqs.map((row) => row.seq),
  );
  // The "used by" entries are derived from the forward relations, which the snapshot carries.
  for (const record of records)
    record.relatedProducts = record.relatedProducts.filter((entry) => entry.source !== 'reverse');
  return records;
}

/**
 * `ChangeFeed.readSnapshot` on SQLite: one read transaction for the whole iteration, on a read-only
 * connection of its own. The reader awaits between batches, and the writer connection would run
 * any write made meanwhile inside that transaction (its writes would become savepoints of it); on
 * its own connection, in WAL mode, the snapshot stays while writers commit.
 */
export async function* readSqliteSnapshot(
  writer: DatabaseSync,
  batchSize: number,
): AsyncGenerator<SnapshotBatch> {
  const path = writer.location();
  if (path === null)
    throw new Error('a snapshot is read on a connection of its own: the database must be a file');
  const db = openDatabase(path, { readOnly: true });
  try {
    db.exec('BEGIN');
    // The first read starts the snapshot: the head and every row below are of the same instant.
    const through = feedHead(db);
    const channels = db.prepare(`${SELECT_CHANNEL} ORDER BY id`).all() as unknown as ChannelRow[];
    const brands = db
      .prepare(`SELECT ${BRAND_COLUMNS} FROM brands ORDER BY seq`)
      .all() as unknown as BrandRow[];
    const { count: productCount } = db.prepare('SELECT count(*) AS count FROM products').get() as {
      count: number;
    };
    let products = productsAfter(db, 0, batchSize);
    yield {
      through,
      productCount,
      webChannels: channels.map(toChannel),
      brands: brands.map(toBrand),
      products,
    };
    while (products.length === batchSize) {
      products = productsAfter(db, (products.at(-1) as ProductRecord).seq, batchSize);
      if (products.length > 0) yield { through, productCount, webChannels: [], brands: [], products };
    }
  } finally {
    // Also reached when the reader stops iterating early: the snapshot ends with it.
    db.close();
  }
}
