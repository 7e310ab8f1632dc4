import type { ChangeEntity } from '../model/change.ts';

/**
 * A table of the catalogue copied row for row. Both engines name its columns alike (the PostgreSQL
 * schema mirrors the embedded one on purpose), so the target's own column list is the mapping; only
 * the table and the order its rows are read in are fixed here.
 */
export interface CopiedTable {
  readonly name: string;
  /** The primary key: SQLite walks it without sorting, and PostgreSQL's indexes fill in order. */
  readonly orderBy: string;
}

/** In an order that satisfies every foreign key: each table comes after those it refers to. */
export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'web_channels', orderBy: 'id' },
  { name: 'brands', orderBy: 'seq' },
  { name: 'products', orderBy: 'seq' },
  { name: 'product_relations', orderBy: 'product_seq, position' },
  { name: 'product_channel_visibility', orderBy: 'channel_id, product_seq' },
  { name: 'm2m_clients', orderBy: 'client_id' },
  { name: 'webhook_subscriptions', orderBy: 'id' },
  { name: 'admin_users', orderBy: 'id' },
  { name: 'audit_events', orderBy: 'id' },
];

/**
 * The records the change feed numbers, one entry each, in the order a reader starting at 0 meets
 * them: channels and brands before the products that name them, products by seq, then clients;
 * each entry at the latest time its row records (as the embedded engine's migration 9 does).
 * `insertTrigger` is the target's trigger that would append an entry per insert: the copy writes
 * the feed itself instead.
 */
export interface FeedSource {
  readonly entity: ChangeEntity;
  readonly table: string;
  readonly entityId: string;
  readonly changedAt: string;
  readonly orderBy: string;
  readonly insertTrigger: string;
}

export const FEED_SOURCES: readonly FeedSource[] = [
  {
    entity: 'web-channel',
    table: 'web_channels',
    entityId: 'slug',
    changedAt: 'created_at',
    orderBy: 'id',
    insertTrigger: 'web_channels_feed_insert',
  },
  {
    entity: 'brand',
    table: 'brands',
    entityId: 'id',
    changedAt: 'updated_at',
    orderBy: 'seq',
    insertTrigger: 'brands_feed_insert',
  },
  {
    entity: 'product',
    table: 'products',
    entityId: 'id',
    changedAt: 'updated_at',
    orderBy: 'seq',
    insertTrigger: 'products_feed_insert',
  },
  {
    entity: 'client',
    table: 'm2m_clients',
    entityId: 'client_id',
    changedAt: 'greatest(created_at, coalesce(revoked_at, 0))',
    orderBy: 'created_at, client_id',
    insertTrigger: 'm2m_clients_feed_insert',
  },
];

/** Every table the target must have no row in: the copied ones and the feed. */
export const TARGET_TABLES: readonly string[] = [...COPIED_TABLES.map((table) => table.name), 'change_feed'];
