import type pg from 'pg';
import type { SnapshotBatch } from '../../../model/change.ts';
import type { ProductRecord, RelatedProduct, RelationType } from '../../../model/product.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from '../../../records/brand-row.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from '../../../records/web-channel-row.ts';
import { RECORD_COLUMNS } from '../../product-columns.ts';
import { storeErrorOf } from '../postgres-errors.ts';
import { feedHead } from './feed-head.ts';
import { type ProductRow, toRecord } from './product-rows.ts';

const SELECT_PRODUCTS = `SELECT ${RECORD_COLUMNS.join(', ')} FROM products WHERE seq > $1 ORDER BY seq LIMIT $2`;

// A relation to a product that does not exist (yet) is not part of its owner's record (the inner
// join), as read-products.ts reads it; the owner comes with the feed once the product is written.
const SELECT_FORWARD = `SELECT r.product_seq, r.related_id, r.relation_type, r.qty, r.note, t.product_code, t.erp_code
  FROM product_relations r JOIN products t ON t.id = r.related_id
  WHERE r.product_seq BETWEEN $1 AND $2 ORDER BY r.product_seq, r.position`;

const SELECT_VISIBILITY = `SELECT v.product_seq, c.slug, v.visible
  FROM product_channel_visibility v JOIN web_channels c ON c.id = v.channel_id
  WHERE v.product_seq BETWEEN $1 AND $2 ORDER BY v.product_seq, c.id`;

interface ForwardRow {
  product_seq: number;
  related_id: string;
  relation_type: RelationType;
  qty: number;
  note: string | null;
  product_code: string;
  erp_code: string;
}

interface VisibilityRow {
  product_seq: number;
  slug: string;
  visible: boolean;
}

/**
 * The next `limit` products after `after`, each with its channel values and forward relations. Three
 * set reads over the batch's seq range rather than read-products.ts's correlated subqueries per
 * product: a snapshot reads every product once, and the "used by" entries those subqueries also
 * derive are not part of it.
 */
async function productsAfter(client: pg.PoolClient, after: number, limit: number): Promise<ProductRecord[]> {
  const rows = (await client.query<ProductRow>(SELECT_PRODUCTS, [after, limit])).rows;
  if (rows.length === 0) return [];
  const range = [rows[0]?.seq, rows.at(-1)?.seq];
  const forward = (await client.query<ForwardRow>(SELECT_FORWARD, range)).rows;
  const visibility = (await client.query<VisibilityRow>(SELECT_VISIBILITY, range)).rows;
  const bySeq = new Map<number, ProductRow>();
  for (const row of rows) {
    Object.assign(row, { web_visibility: {}, forward: [], reverse: [] });
    bySeq.set(row.seq as number, row);
  }
  for (const row of forward) {
    const entry: RelatedProduct = {
      productId: row.related_id,
      relationType: row.relation_type,
      qty: row.qty,
      productCode: row.product_code,
      erpCode: row.erp_code,
    };
    if (row.note !== null) entry.note = row.note;
    bySeq.get(row.product_seq)?.forward.push(entry);
  }
  for (const row of visibility) {
    const owner = bySeq.get(row.product_seq);
    if (owner !== undefined) owner.web_visibility[row.slug] = row.visible;
  }
  return rows.map(toRecord);
}

/**
 * `ChangeFeed.readSnapshot` on PostgreSQL: one connection in one REPEATABLE READ, read-only
 * transaction for the whole iteration, so the head, channels, brands and every batch of products are
 * the same instant. The head is the write clock's counter, moved by every write transaction under the
 * row lock it holds to its commit: the snapshot holds exactly the writes numbered up to it. Products
 * are read by keyset over seq, so no batch costs more than the first.
 */
export async function* readPostgresSnapshot(pool: pg.Pool, batchSize: number): AsyncGenerator<SnapshotBatch> {
  const client = await pool.connect();
  let open = false;
  let broken: Error | undefined;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    const through = await feedHead(client);
    const channels = await client.query<ChannelRow>(`${SELECT_CHANNEL} ORDER BY id`);
    const brands = await client.query<BrandRow>(`SELECT ${BRAND_COLUMNS} FROM brands ORDER BY seq`);
    const productCount = (
      await client.query<{ count: number }>('SELECT count(*)::int AS count FROM products')
    ).rows[0]?.count as number;
    // The next batch is asked for before the current one is handed over: the server reads it while
    // the caller writes this one.
    const following = (batch: ProductRecord[]) => {
      if (batch.length < batchSize) return undefined;
      const read = productsAfter(client, (batch.at(-1) as ProductRecord).seq, batchSize);
      // Awaited on the next round, or dropped when the caller stops first: never left unhandled.
      read.catch(() => undefined);
      return read;
    };
    let products = await productsAfter(client, 0, batchSize);
    let next = following(products);
    yield {
      through,
      productCount,
      webChannels: channels.rows.map(toChannel),
      brands: brands.rows.map(toBrand),
      products,
    };
    while (next !== undefined) {
      products = await next;
      next = following(products);
      if (products.length > 0) yield { through, productCount, webChannels: [], brands: [], products };
    }
    await client.query('COMMIT');
    open = false;
  } catch (error) {
    // Server errors carry a code; one without is a broken connection, not to be reused.
    if ((error as { code?: string }).code === undefined) broken = error as Error;
    throw storeErrorOf(error);
  } finally {
    // Also reached when the reader stops iterating early: the snapshot ends with it.
    if (open && broken === undefined) {
      await client.query('ROLLBACK').catch((error: Error) => {
        broken = error;
      });
    }
    client.release(broken);
  }
}
