import { InvalidSyncTokenError } from '@catalog/store/sqlite-reading';
import type { CursorPosition } from '../../engine/search-engine.ts';

/**
 * Where a page ended in this engine's plan: its bucket (identifier hits, then the text buckets),
 * the row's sort key in that bucket (null in relevance order) and its seq.
 */
export interface BucketPosition {
  bucket: number;
  key: string | number | null;
  seq: number;
}

/** The engine-neutral position this engine hands out: its key is `[bucket, sortKey]`. */
export function toCursorPosition(position: BucketPosition): CursorPosition {
  return { key: [position.bucket, position.key], seq: position.seq };
}

/** A signed position this engine did not write (another engine's key) cannot be continued. */
export function toBucketPosition(position: CursorPosition): BucketPosition {
  const [bucket, key, ...rest] = position.key;
  if (!Number.isSafeInteger(bucket) || key === undefined || rest.length > 0) {
    throw new InvalidSyncTokenError('malformed');
  }
  return { bucket: bucket as number, key, seq: position.seq };
}
