import { toIso } from '../adapters/timestamps.ts';
import type { Change, ChangedRecords, ChangeEntity } from '../model/change.ts';
import type { ProductRecord } from '../model/product.ts';
import { BRAND_COLUMNS, type BrandRow, toBrand } from './brand-row.ts';
import type { SqlDialect } from './record-engine.ts';
import { type RecordWork, rows } from './record-work.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from './web-channel-row.ts';

/** What each engine reads of the feed its own way, inside the rule's read snapshot. */
export interface FeedRows {
  /** The newest committed entry's sequence, 0 for none. */
  head(): RecordWork<number>;
  /** The full records of these products, in seq order. */
  products(seqs: readonly number[]): RecordWork<ProductRecord[]>;
}

interface ChangeRow {
  sequence: number;
  entity: ChangeEntity;
  entity_id: string;
  changed_at: number;
}

/** The entries after `after`, oldest first, at most `limit` (none for a limit below one). */
export function* readChanges(after: number, limit: number): RecordWork<Change[]> {
  const found = yield* rows<ChangeRow>(
    'SELECT sequence, entity, entity_id, changed_at FROM change_feed WHERE sequence > ? ORDER BY sequence LIMIT ?',
    after,
    Math.max(limit, 0),
  );
  return found.map((row) => ({
    sequence: row.sequence,
    entity: row.entity,
    entityId: row.entity_id,
    changedAt: toIso(row.changed_at),
  }));
}

function idsOf(changes: readonly Change[], entity: ChangeEntity): string[] {
  return [...new Set(changes.filter((change) => change.entity === entity).map((change) => change.entityId))];
}

/**
 * `ChangeFeed.readRecords`, run in one read snapshot so that the entries, the head and the records
 * are the same instant. Along with the named records come the owners of relations naming a changed
 * product (a relation to a product that did not exist is hidden from its owner's record until that
 * product is written, which stamps only the product), and the brands and channels the products
 * refer to, so that a replica never holds a product whose brand or channel it has not seen.
 */
export function* readChangedRecords(
  dialect: SqlDialect,
  feed: FeedRows,
  after: number,
  limit: number,
): RecordWork<ChangedRecords> {
  const changes = yield* readChanges(after, limit);
  const head = yield* feed.head();
  const productIds = dialect.list(idsOf(changes, 'product'));
  // The seqs first, one indexed lookup per side (an OR of the two would scan the table), then the
  // records by that short list (PostgreSQL's planner may otherwise sort the whole table).
  const seqs = yield* rows<{ seq: number }>(
    `SELECT seq FROM products WHERE ${dialect.inList('id')}
     UNION SELECT product_seq FROM product_relations WHERE ${dialect.inList('related_id')} ORDER BY 1`,
    productIds,
    productIds,
  );
  const products = seqs.length === 0 ? [] : yield* feed.products(seqs.map((row) => row.seq));
  const brandSlugs = [...new Set(products.map((product) => product.brandSlug).filter((slug) => slug !== ''))];
  const brands = yield* rows<BrandRow>(
    `SELECT ${BRAND_COLUMNS} FROM brands WHERE ${dialect.inList('id')} OR ${dialect.inList('slug')} ORDER BY seq`,
    dialect.list(idsOf(changes, 'brand')),
    dialect.list(brandSlugs),
  );
  const channelSlugs = new Set(idsOf(changes, 'web-channel'));
  for (const product of products)
    for (const slug of Object.keys(product.webVisibility)) channelSlugs.add(slug);
  const channels = yield* rows<ChannelRow>(
    `${SELECT_CHANNEL} WHERE ${dialect.inList('slug')} ORDER BY id`,
    dialect.list([...channelSlugs]),
  );
  return {
    through: changes.at(-1)?.sequence ?? after,
    head,
    webChannels: channels.map(toChannel),
    brands: brands.map(toBrand),
    products,
  };
}
