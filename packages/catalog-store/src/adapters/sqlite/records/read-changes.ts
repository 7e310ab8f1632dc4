import type { DatabaseSync } from 'node:sqlite';
import type { Change, ChangeEntity } from '../../../model/change.ts';
import { toIso } from '../../timestamps.ts';
import { statement } from '../statement-cache.ts';

interface ChangeRow {
  sequence: number;
  entity: ChangeEntity;
  entity_id: string;
  changed_at: number;
}

/** The entries after `after`, oldest first, at most `limit` (migration 9 and the bulk loads append them). */
export function readChanges(db: DatabaseSync, after: number, limit: number): Change[] {
  // SQLite reads a negative LIMIT as no limit at all.
  const rows = statement(
    db,
    'SELECT sequence, entity, entity_id, changed_at FROM change_feed WHERE sequence > ? ORDER BY sequence LIMIT max(?, 0)',
  ).all(after, limit) as unknown as ChangeRow[];
  return rows.map((row) => ({
    sequence: row.sequence,
    entity: row.entity,
    entityId: row.entity_id,
    changedAt: toIso(row.changed_at),
  }));
}

/** The newest entry's sequence, 0 for none: one step down the table's rowid B-tree. */
export function feedHead(db: DatabaseSync): number {
  const row = statement(db, 'SELECT coalesce(max(sequence), 0) AS head FROM change_feed').get() as {
    head: number;
  };
  return row.head;
}
