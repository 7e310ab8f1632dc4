import type { Brand } from './brand.ts';
import type { ProductRecord } from './product.ts';
import type { WebChannel } from './web-channel.ts';

/** What a change-feed entry is about, and how its `entityId` names the record. */
export type ChangeEntity = 'product' | 'brand' | 'web-channel' | 'client';

export const CHANGE_ENTITIES: readonly ChangeEntity[] = ['product', 'brand', 'web-channel', 'client'];

/**
 * One committed write of one record: a product by its id, a brand by its id, a web channel by its
 * slug, a client by its clientId. The entry says what changed, not how: a reader fetches the record
 * as it is now, which is at least as new as the entry.
 */
export interface Change {
  /** 1, 2, 3, … in commit order, without gaps. */
  sequence: number;
  entity: ChangeEntity;
  entityId: string;
  /** The write's timestamp (for a product or brand, the updatedAt it was given). */
  changedAt: string;
}

/**
 * The records changed after a sequence, read at one instant of the source: what a replica applies.
 * `through` is the last entry covered. When `head` equals `through`, the records are the source's
 * state at that entry's commit, so a replica that applies them shows a state the source had.
 */
export interface ChangedRecords {
  through: number;
  /** The newest entry at the instant of the read. */
  head: number;
  /** The changed channels and those the products' visibility names. */
  webChannels: WebChannel[];
  /** The changed brands and those the products belong to. */
  brands: Brand[];
  /**
   * The changed products, and the products whose forward relations name one of them: a relation to
   * a product that did not exist yet is not part of its owner's record until the product exists.
   */
  products: ProductRecord[];
}

/**
 * One part of a snapshot of the whole source (ChangeFeed.readSnapshot): what a new replica loads
 * at once instead of replaying the feed from its start. Every part comes from the same instant.
 */
export interface SnapshotBatch {
  /** The feed's head at the snapshot's instant, the same in every part: where the feed takes over. */
  through: number;
  /** How many products the whole snapshot holds, the same in every part: what a load reports progress against. */
  productCount: number;
  /** Every web channel, in the first part; empty in the others. */
  webChannels: WebChannel[];
  /** Every brand, in the first part; empty in the others. */
  brands: Brand[];
  /**
   * The next products in seq order, with their forward relations only (no `source: 'reverse'`
   * entries: a replica derives them from the forward ones it holds).
   */
  products: ProductRecord[];
}
