import type pg from 'pg';
import { migratePostgres } from '../adapters/postgres/migrate.ts';
import { openPool, type PostgresConnectionOptions } from '../adapters/postgres/open-pool.ts';
import { refreshStatistics } from '../adapters/postgres/records/refresh-statistics.ts';
import { inWriteTransaction } from '../adapters/postgres/transaction.ts';
import { COPIED_TABLES, TARGET_TABLES } from './copied-tables.ts';
import { copySigningKeys, type SealSigningKeys } from './copy-signing-keys.ts';
import { copyInto } from './copy-writer.ts';
import { deferIndexes } from './deferred-indexes.ts';
import { setFeedTriggers, writeFreshFeed } from './fresh-change-feed.ts';
import { moveIdentityPast } from './identity-sequences.ts';
import { openSqliteSource, type SqliteSource } from './sqlite-source.ts';
import { refuseNonEmptyTarget, targetTables } from './target-catalogue.ts';
import { type TableRows, verifyCopy } from './verify-copy.ts';
import { startWebhookOutboxAt } from './webhook-outbox-start.ts';

export interface CopyProgress {
  /** What is being done: a table's name while its rows go, then the steps after them. */
  readonly step: string;
  /** Rows sent so far, of every table. */
  readonly copied: number;
  /** Rows of every table in the source. */
  readonly total: number;
}

export interface CopySqliteToPostgresOptions {
  /** The embedded engine's database file (`catalogDatabasePath(dataDir)`); opened read-only. */
  readonly sourcePath: string;
  readonly target: PostgresConnectionOptions;
  /**
   * The source deployment's token-signing keys, sealed by the token server's code for the version
   * they are stored at (the store never sees them in clear); absent when the source has none.
   */
  readonly signingKeys?: SealSigningKeys;
  readonly onProgress?: (progress: CopyProgress) => void;
}

export interface CopyReport {
  /** Rows of each table on the target once verified, in copy order, the new change feed last. */
  readonly tables: readonly TableRows[];
  /** The write clock after the copy: the next write is stamped later. */
  readonly lastTs: number;
  /** Whether the signing keys were written (`signingKeys` was given). */
  readonly signingKeysCopied: boolean;
  readonly durationMs: number;
}

async function copyRecords(
  client: pg.PoolClient,
  source: SqliteSource,
  signingKeys: SealSigningKeys | undefined,
  onProgress: (progress: CopyProgress) => void,
): Promise<{ tables: TableRows[]; lastTs: number; signingKeysCopied: boolean }> {
  await refuseNonEmptyTarget(client);
  const target = await targetTables(client, COPIED_TABLES);
  const counts = COPIED_TABLES.map((table) => ({ table: table.name, rows: source.count(table) }));
  const total = counts.reduce((sum, { rows }) => sum + rows, 0);
  let copied = 0;
  const buildIndexes = await deferIndexes(client, TARGET_TABLES);
  await setFeedTriggers(client, false);
  for (const table of COPIED_TABLES) {
    const { columns } = target.get(table.name) as { columns: readonly string[] };
    onProgress({ step: table.name, copied, total });
    await copyInto(client, table.name, columns, source.chunks(table, columns), (rows) => {
      copied += rows;
      onProgress({ step: table.name, copied, total });
    });
  }
  await setFeedTriggers(client, true);
  onProgress({ step: 'change feed', copied, total });
  const feed = await writeFreshFeed(client);
  await startWebhookOutboxAt(client, feed.entries);
  onProgress({ step: 'indexes', copied, total });
  await buildIndexes();
  await refreshStatistics(client, TARGET_TABLES);
  for (const table of COPIED_TABLES) {
    for (const column of target.get(table.name)?.identities ?? []) {
      await moveIdentityPast(client, table.name, column, source.autoincrementHigh(table));
    }
  }
  onProgress({ step: 'verify', copied, total });
  const tables = await verifyCopy(client, counts, feed.entries);
  if (signingKeys !== undefined) {
    onProgress({ step: 'signing keys', copied, total });
    await copySigningKeys(client, signingKeys);
  }
  return { tables, lastTs: feed.lastTs, signingKeysCopied: signingKeys !== undefined };
}

/**
 * `pnpm catalog copy`: every record of an embedded deployment into an empty PostgreSQL catalogue,
 * ids, seqs and times kept, with a change feed numbering them all (fresh-change-feed.ts), and the
 * webhook subscriptions without their delivery log (webhook-outbox-start.ts).
 *
 * The target is migrated first, then everything else is ONE write transaction that takes the write
 * clock like every writer: the emptiness check, a COPY per table streamed from the source's
 * snapshot, the feed, the identities moved past the copied ids, the verification of every count,
 * and the source's signing keys when given (sealed: copy-signing-keys.ts). A failure anywhere, a
 * row PostgreSQL refuses or the process killed, leaves the target as empty as it was. The source
 * is only read.
 */
export async function copySqliteToPostgres(options: CopySqliteToPostgresOptions): Promise<CopyReport> {
  const started = performance.now();
  const source = openSqliteSource(options.sourcePath);
  try {
    const pool = openPool({ ...options.target, maxConnections: 1 });
    try {
      await migratePostgres(pool);
      const copy = await inWriteTransaction(pool, (client) =>
        copyRecords(client, source, options.signingKeys, options.onProgress ?? (() => undefined)),
      );
      return { ...copy, durationMs: performance.now() - started };
    } finally {
      await pool.end();
    }
  } finally {
    source.close();
  }
}
