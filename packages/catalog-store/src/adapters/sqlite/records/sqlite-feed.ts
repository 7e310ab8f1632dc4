import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { SnapshotBatch } from '../../../model/change.ts';
import type { ProductRecord } from '../../../model/product.ts';
import type { EngineFeed } from '../../../records/record-change-feed.ts';
import { onConnection, type RecordWork } from '../../../records/record-work.ts';
import { statement } from '../statement-cache.ts';
import { feedHead } from './feed-head.ts';
import { readProductsBySeq } from './read-products.ts';
import { readSqliteSnapshot } from './read-snapshot.ts';

/** SQLite's side of the change feed: its head in change_feed itself, its origin in meta. */
export class SqliteFeed implements EngineFeed {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  head(): RecordWork<number> {
    return onConnection((db: DatabaseSync) => feedHead(db));
  }

  products(seqs: readonly number[]): RecordWork<ProductRecord[]> {
    return onConnection((db: DatabaseSync) => readProductsBySeq(db, seqs));
  }

  /** Made on first request: a copy of the file (a backup) keeps it, as it keeps the feed. */
  async origin(): Promise<string> {
    statement(this.#db, "INSERT INTO meta (key, value) VALUES ('feed_origin', ?) ON CONFLICT DO NOTHING").run(
      randomUUID(),
    );
    const row = statement(this.#db, "SELECT value FROM meta WHERE key = 'feed_origin'").get() as {
      value: string;
    };
    return row.value;
  }

  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch> {
    return readSqliteSnapshot(this.#db, batchSize);
  }
}
