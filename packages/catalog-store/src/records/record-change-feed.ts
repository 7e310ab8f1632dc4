import type { Change, ChangedRecords, SnapshotBatch } from '../model/change.ts';
import type { ChangeFeed } from '../ports/change-feed.ts';
import { type FeedRows, readChangedRecords, readChanges } from './change-feed-records.ts';
import type { RecordEngine } from './record-engine.ts';

/**
 * What each engine does with the feed its own way: where its head and origin are kept (SQLite's
 * change_feed and meta tables, PostgreSQL's write_clock row) and the whole-catalogue snapshot.
 */
export type EngineFeed = FeedRows & Pick<ChangeFeed, 'origin' | 'readSnapshot'>;

/** The change feed on either record engine; the triggers of each engine's migrations append to it. */
export class RecordChangeFeed implements ChangeFeed {
  readonly #engine: RecordEngine;
  readonly #feed: EngineFeed;

  constructor(engine: RecordEngine, feed: EngineFeed) {
    this.#engine = engine;
    this.#feed = feed;
  }

  read(after: number, limit: number): Promise<Change[]> {
    return this.#engine.direct(() => readChanges(after, limit));
  }

  head(): Promise<number> {
    return this.#engine.direct(() => this.#feed.head());
  }

  origin(): Promise<string> {
    return this.#feed.origin();
  }

  readRecords(after: number, limit: number): Promise<ChangedRecords> {
    return this.#engine.snapshot(() => readChangedRecords(this.#engine.dialect, this.#feed, after, limit));
  }

  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch> {
    return this.#feed.readSnapshot(batchSize);
  }
}
