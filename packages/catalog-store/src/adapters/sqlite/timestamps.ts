import type { DatabaseSync } from 'node:sqlite';

/**
 * The updatedAt of the current write transaction: never earlier than any updatedAt already
 * committed. A product updated during a sync walk therefore always moves strictly ahead of
 * the walker's cursor (decisions: sync reads order by updatedAt, seq) and is never lost.
 */
export function nextWriteTimestamp(db: DatabaseSync): number {
  const row = db.prepare('SELECT max(updated_at) AS latest FROM products').get() as { latest: number | null };
  const now = Date.now();
  return row.latest === null ? now : Math.max(now, row.latest + 1);
}
