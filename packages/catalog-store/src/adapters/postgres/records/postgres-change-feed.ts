import type pg from 'pg';
import type { Change, ChangedRecords, ChangeEntity, SnapshotBatch } from '../../../model/change.ts';
import type { ChangeFeed } from '../../../ports/change-feed.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from '../../../records/brand-row.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from '../../../records/web-channel-row.ts';
import { toIso } from '../../timestamps.ts';
import { inReadTransaction } from '../transaction.ts';
import { feedHead } from './feed-head.ts';
import { readProducts } from './read-products.ts';
import { readPostgresSnapshot } from './read-snapshot.ts';

interface ChangeRow {
  sequence: number;
  entity: ChangeEntity;
  entity_id: string;
  changed_at: number;
}

const SELECT_CHANGES =
  'SELECT sequence, entity, entity_id, changed_at FROM change_feed WHERE sequence > $1 ORDER BY sequence LIMIT $2';

function toChange(row: ChangeRow): Change {
  return {
    sequence: row.sequence,
    entity: row.entity,
    entityId: row.entity_id,
    changedAt: toIso(row.changed_at),
  };
}

function idsOf(changes: readonly Change[], entity: ChangeEntity): string[] {
  return [...new Set(changes.filter((change) => change.entity === entity).map((change) => change.entityId))];
}

/** Reads the feed the triggers of migration 1 append to (see the write clock in transaction.ts). */
export class PostgresChangeFeed implements ChangeFeed {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async read(after: number, limit: number): Promise<Change[]> {
    const result = await this.#pool.query<ChangeRow>(SELECT_CHANGES, [after, limit]);
    return result.rows.map(toChange);
  }

  head(): Promise<number> {
    return feedHead(this.#pool);
  }

  async origin(): Promise<string> {
    const result = await this.#pool.query<{ feed_origin: string }>('SELECT feed_origin FROM write_clock');
    return result.rows[0]?.feed_origin as string;
  }

  /**
   * One REPEATABLE READ snapshot: the entries, the head and the records are the same instant. Along
   * with the named records come the owners of relations naming a changed product (a relation to a
   * product that did not exist is hidden from its owner's record until that product is written,
   * which stamps only the product), and the brands and channels the products refer to, so that a
   * replica never holds a product whose brand or channel it has not seen.
   */
  readRecords(after: number, limit: number): Promise<ChangedRecords> {
    return inReadTransaction(this.#pool, async (client) => {
      const changes = (await client.query<ChangeRow>(SELECT_CHANGES, [after, limit])).rows.map(toChange);
      const head = await feedHead(client);
      const productIds = idsOf(changes, 'product');
      // The seqs first, one indexed lookup per side (an OR of the two would scan the table), then the
      // records by that short list: joined to the records' read as a subquery, the planner may
      // estimate thousands of rows and choose to sort the whole table instead (seen at 1M products).
      const seqs =
        productIds.length === 0
          ? []
          : (
              await client.query<{ seq: number }>(
                `SELECT seq FROM products WHERE id = ANY($1)
                 UNION SELECT product_seq FROM product_relations WHERE related_id = ANY($1)`,
                [productIds],
              )
            ).rows.map((row) => row.seq);
      const products =
        seqs.length === 0 ? [] : await readProducts(client, 'p.seq = ANY($1::bigint[])', [seqs]);
      const brandIds = idsOf(changes, 'brand');
      const brandSlugs = [
        ...new Set(products.map((product) => product.brandSlug).filter((slug) => slug !== '')),
      ];
      const brands = await client.query<BrandRow>(
        `SELECT ${BRAND_COLUMNS} FROM brands WHERE id = ANY($1) OR slug = ANY($2) ORDER BY seq`,
        [brandIds, brandSlugs],
      );
      const channelSlugs = new Set(idsOf(changes, 'web-channel'));
      for (const product of products)
        for (const slug of Object.keys(product.webVisibility)) channelSlugs.add(slug);
      const channels = await client.query<ChannelRow>(`${SELECT_CHANNEL} WHERE slug = ANY($1) ORDER BY id`, [
        [...channelSlugs],
      ]);
      return {
        through: changes.at(-1)?.sequence ?? after,
        head,
        webChannels: channels.rows.map(toChannel),
        brands: brands.rows.map(toBrand),
        products,
      };
    });
  }

  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch> {
    return readPostgresSnapshot(this.#pool, batchSize);
  }
}
