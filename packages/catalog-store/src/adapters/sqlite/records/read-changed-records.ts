import type { DatabaseSync } from 'node:sqlite';
import type { Change, ChangedRecords, ChangeEntity } from '../../../model/change.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from '../../../records/brand-row.ts';
import { type ChannelRow, toChannel } from '../../../records/web-channel-row.ts';
import { statement } from '../statement-cache.ts';
import { inReadTransaction } from '../transaction.ts';
import { feedHead, readChanges } from './read-changes.ts';
import { readProductsBySeq } from './read-products.ts';

/** The distinct ids the entries name for `entity`, as a JSON array for json_each. */
function idsOf(changes: readonly Change[], entity: ChangeEntity): string {
  return JSON.stringify([
    ...new Set(changes.filter((change) => change.entity === entity).map((change) => change.entityId)),
  ]);
}

/**
 * `ChangeFeed.readRecords` on SQLite: the entries and the records they name in one read
 * transaction, so that `head` and the records are the same instant. The owners of relations that
 * name a changed product come along: a relation to a product that did not exist is hidden from its
 * owner's record (read-products.ts) until that product is written, which stamps only the product.
 */
export function readChangedRecords(db: DatabaseSync, after: number, limit: number): ChangedRecords {
  return inReadTransaction(db, () => {
    const changes = readChanges(db, after, limit);
    const seqs = statement(
      db,
      `SELECT seq FROM products WHERE id IN (SELECT value FROM json_each(?1))
       UNION SELECT product_seq FROM product_relations WHERE related_id IN (SELECT value FROM json_each(?1))
       ORDER BY 1`,
    ).all(idsOf(changes, 'product')) as Array<{ seq: number }>;
    const products = readProductsBySeq(
      db,
      seqs.map((row) => row.seq),
    );
    // The brands and channels the products refer to come along, so that a replica never holds a
    // product whose brand or channel it has not seen.
    const brandSlugs = JSON.stringify([...new Set(products.map((product) => product.brandSlug))]);
    const channelSlugs = new Set(
      changes.filter((change) => change.entity === 'web-channel').map((change) => change.entityId),
    );
    for (const product of products)
      for (const slug of Object.keys(product.webVisibility)) channelSlugs.add(slug);
    const channels = statement(
      db,
      'SELECT slug, name, created_at FROM web_channels WHERE slug IN (SELECT value FROM json_each(?)) ORDER BY id',
    ).all(JSON.stringify([...channelSlugs])) as unknown as ChannelRow[];
    const brands = statement(
      db,
      `SELECT ${BRAND_COLUMNS} FROM brands
       WHERE id IN (SELECT value FROM json_each(?)) OR slug IN (SELECT value FROM json_each(?)) ORDER BY seq`,
    ).all(idsOf(changes, 'brand'), brandSlugs) as unknown as BrandRow[];
    return {
      through: changes.at(-1)?.sequence ?? after,
      head: feedHead(db),
      webChannels: channels.map(toChannel),
      brands: brands.map(toBrand),
      products,
    };
  });
}
