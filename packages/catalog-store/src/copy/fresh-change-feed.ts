import type pg from 'pg';
import { FEED_SOURCES } from './copied-tables.ts';

/**
 * Turns the feed's insert triggers off (`enabled` false) or on again. Left on, they would number
 * each COPY's rows at one time, the statement's newest; the copy numbers each record at its own
 * instead. ALTER TABLE is transactional: a copy that fails or dies leaves them as they were.
 */
export async function setFeedTriggers(client: pg.PoolClient, enabled: boolean): Promise<void> {
  for (const source of FEED_SOURCES) {
    await client.query(
      `ALTER TABLE ${source.table} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER ${source.insertTrigger}`,
    );
  }
}

export interface FreshFeed {
  /** Entries written, numbered 1 to this: the write clock's last sequence. */
  readonly entries: number;
  /** The write clock's time: no write after the copy is stamped at or before it. */
  readonly lastTs: number;
}

/**
 * A new feed over the copied records, one entry each (FEED_SOURCES), rather than the source's
 * history: a reader starting at 0 meets every record once, numbered from 1 without a gap. The clock
 * moves past every time copied (an updatedAt, an audit event, a feed entry), so writes on the
 * target never go back in time, and its sequence to the last entry, after which the triggers
 * number the next write's.
 */
export async function writeFreshFeed(client: pg.PoolClient): Promise<FreshFeed> {
  let entries = 0;
  for (const source of FEED_SOURCES) {
    const result = await client.query(
      `INSERT INTO change_feed (sequence, entity, entity_id, changed_at)
       SELECT $1::bigint + row_number() OVER (ORDER BY ${source.orderBy}), $2, ${source.entityId}, ${source.changedAt}
       FROM ${source.table}`,
      [entries, source.entity],
    );
    entries += result.rowCount ?? 0;
  }
  const clock = await client.query<{ last_ts: number }>(
    `UPDATE write_clock SET last_sequence = $1, last_ts = greatest(last_ts,
       (SELECT max(changed_at) FROM change_feed),
       (SELECT max(updated_at) FROM admin_users),
       (SELECT max(occurred_at) FROM audit_events))
     RETURNING last_ts`,
    [entries],
  );
  return { entries, lastTs: clock.rows[0]?.last_ts as number };
}
