import type { DatabaseSync } from 'node:sqlite';

/**
 * Page cache of a connection that bulk loads batch by batch, in KiB (a writer connection's default is
 * 16 MiB, open-database.ts). A batch of 10,000 products dirties pages all over the indexes of `products`; when they
 * do not fit, SQLite spills them to the WAL before the commit and writes them again.
 */
export const BATCH_LOAD_CACHE_KIB = 256 * 1024;

/**
 * Raises the page cache to `kib` (never lowers it). Kept: the connections that bulk load are the
 * operator CLI's, which exit when done; the API's first-start demo load gives it back (loadIfEmpty).
 */
export function raiseCacheForLoad(db: DatabaseSync, kib: number): void {
  const { cache_size: current } = db.prepare('PRAGMA cache_size').get() as { cache_size: number };
  const currentKib = current < 0 ? -current : (current * 4096) / 1024;
  if (currentKib < kib) db.exec(`PRAGMA cache_size = -${kib}`);
}
