import type { Change, ChangedRecords, SnapshotBatch } from '../model/change.ts';

/**
 * Every committed write of a product, brand, web channel or client, appended in the transaction
 * that made it (a rolled-back write leaves no entry) and numbered in commit order without gaps,
 * even with several processes writing at once. A client's lastUsedAt and usageCount are bookkeeping
 * of its use, not writes, and append nothing.
 *
 * What an index derived from the store (a search replica, a Meilisearch indexer) tails: it reads
 * after the last sequence it applied, and knowing the head it knows how far behind it is.
 */
export interface ChangeFeed {
  /** Entries with a sequence above `after`, oldest first, at most `limit` of them. */
  read(after: number, limit: number): Promise<Change[]>;
  /** The sequence of the newest committed entry; 0 when there is none. */
  head(): Promise<number>;
  /**
   * Names this feed: the same for every process reading the same store, another for any other
   * store (a new database, a restore into a new one). A replica built from one feed is not
   * continued from another.
   */
  origin(): Promise<string>;
  /**
   * The current records of the products, brands and web channels named by the entries after
   * `after` (at most `limit` entries), read with the entries in one snapshot, with what a replica
   * needs to apply them alone (model/change.ts, ChangedRecords). Clients are not included: no
   * index derived from the feed holds them.
   */
  readRecords(after: number, limit: number): Promise<ChangedRecords>;
  /**
   * Every web channel, brand and product the source holds, read in one snapshot: a new replica
   * loads it at once, then follows the feed after its `through`. At least one part, even for an
   * empty catalogue; the first carries the channels and brands, each at most `batchSize` products in
   * seq order. A write committed while the parts are read is not in them, and its entries come after
   * `through`. The snapshot is held until the iteration ends (or is broken off).
   */
  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch>;
}
