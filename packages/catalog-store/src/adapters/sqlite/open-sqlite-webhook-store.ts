import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryRound, DeliveryRoundResult } from '../../model/webhook.ts';
import type { WebhookStore } from '../../ports/webhook-store.ts';
import { RecordWebhookStore } from '../../records/record-webhook-store.ts';
import { SchemaTooNewError } from '../migration.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { openDatabase } from './open-database.ts';
import { sqliteRecordEngine } from './records/sqlite-record-engine.ts';
import { recordedSchemaVersion } from './schema-version.ts';
import { statement } from './statement-cache.ts';
import { takeWriteLockHold } from './transaction.ts';
import { WriteLockShare } from './write-lock-share.ts';

export interface SqliteWebhookStore {
  readonly webhooks: WebhookStore;
  close(): Promise<void>;
}

export interface SqliteWebhookStoreOptions {
  databasePath: string;
  /**
   * The share of the time the outbox's rounds may hold the file's one write lock while other
   * connections write the catalogue: after a round that took t, the next waits t × (1 / share − 1).
   * Alone on the file, half (write-lock-share.ts says why).
   */
  writeShare: number;
}

function checkSchema(db: DatabaseSync, databasePath: string): void {
  const version = recordedSchemaVersion(db) ?? 0;
  const known = MIGRATIONS.at(-1)?.version ?? 0;
  if (version > known) throw new SchemaTooNewError(version, known);
  if (version < known)
    throw new Error(
      `${databasePath} is at schema version ${version}, this code's is ${known}: the API migrates it as it opens it`,
    );
}

/** Changes when another connection has committed since this one last asked. */
const othersCommitted = (db: DatabaseSync): number =>
  (statement(db, 'PRAGMA data_version').get() as { data_version: number }).data_version;

/**
 * The outbox's rounds, yielding the write lock to the catalogue's writers. Each delivery is rows
 * written and rewritten under SQLite's one write lock, and rounds back to back under a burst of
 * writes held it for as long as the writes did: the writes' throughput fell by half (the webhook
 * bench). Each round rests in proportion to the last one's length, more while others write.
 */
class YieldingWebhookStore extends RecordWebhookStore {
  readonly #db: DatabaseSync;
  readonly #share: WriteLockShare;
  #seen: number;

  constructor(db: DatabaseSync, writeShare: number) {
    super(sqliteRecordEngine(db));
    this.#db = db;
    this.#share = new WriteLockShare(writeShare);
    this.#seen = othersCommitted(db);
  }

  override async deliveryRound(round: DeliveryRound): Promise<DeliveryRoundResult> {
    const rest = this.#share.restBefore(performance.now(), othersCommitted(this.#db) !== this.#seen);
    if (rest > 0) await sleep(rest);
    takeWriteLockHold(this.#db);
    try {
      return await super.deliveryRound(round);
    } finally {
      // A round with nothing to write took no lock and rests not at all.
      this.#share.held(performance.now(), takeWriteLockHold(this.#db));
      // Read after this round's own commit, which does not count: only the others' since then do.
      this.#seen = othersCommitted(this.#db);
    }
  }
}

/**
 * The webhook outbox on a connection of its own to a catalogue the API has already opened: no
 * migration, no upkeep of the catalogue's derived rows (the outbox's transactions write none of
 * them), only a check that the file is at this code's schema.
 */
export function openSqliteWebhookStore(options: SqliteWebhookStoreOptions): SqliteWebhookStore {
  const db = openDatabase(options.databasePath);
  try {
    checkSchema(db, options.databasePath);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    webhooks: new YieldingWebhookStore(db, options.writeShare),
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
}
