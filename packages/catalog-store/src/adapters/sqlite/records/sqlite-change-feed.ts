import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Change, ChangedRecords, SnapshotBatch } from '../../../model/change.ts';
import type { ChangeFeed } from '../../../ports/change-feed.ts';
import { statement } from '../statement-cache.ts';
import { readChangedRecords } from './read-changed-records.ts';
import { feedHead, readChanges } from './read-changes.ts';
import { readSqliteSnapshot } from './read-snapshot.ts';

export class SqliteChangeFeed implements ChangeFeed {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  async read(after: number, limit: number): Promise<Change[]> {
    return readChanges(this.#db, after, limit);
  }

  async head(): Promise<number> {
    return feedHead(this.#db);
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

  async readRecords(after: number, limit: number): Promise<ChangedRecords> {
    return readChangedRecords(this.#db, after, limit);
  }

  readSnapshot(batchSize: number): AsyncIterable<SnapshotBatch> {
    return readSqliteSnapshot(this.#db, batchSize);
  }
}
