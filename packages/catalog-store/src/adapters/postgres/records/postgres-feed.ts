import type pg from 'pg';
import type { SnapshotBatch } from '../../../model/change.ts';
import type { ProductRecord } from '../../../model/product.ts';
import type { EngineFeed } from '../../../records/record-change-feed.ts';
import { onConnection, type RecordWork } from '../../../records/record-work.ts';
import { feedHead } from './feed-head.ts';
import { readProducts } from './read-products.ts';
import { readPostgresSnapshot } from './read-snapshot.ts';

/**
 * PostgreSQL's side of the change feed: its head and origin on the write_clock row, whose lock
 * numbers the entries in commit order (transaction.ts).
 */
export class PostgresFeed implements EngineFeed {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  head(): RecordWork<number> {
    return onConnection((db: pg.Pool | pg.PoolClient) => feedHead(db));
  }

  products(seqs: readonly number[]): RecordWork<ProductRecord[]> {
    return onConnection((client: pg.PoolClient) => readProducts(client, 'p.seq = ANY($1::bigint[])', [seqs]));
  }

  async origin(): Promise<string> {
    const result = await this.#pool.query<{ feed_origin: string }>('SELECT feed_origin FROM write_clock');
    return result.rows[0]?.feed_origin as string;
  }

  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch> {
    return readPostgresSnapshot(this.#pool, batchSize);
  }
}
