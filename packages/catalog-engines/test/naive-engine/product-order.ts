import type { NormalisedProductQuery, PositionKeyPart } from '@catalog/search';
import type { ProductRecord } from '@catalog/store';
// The sort values the search contract suites expect: an engine that merely scans has no other
// source of them than the order spec 4.1 promises.
import { sortValue } from '../../../catalog-search/test/contract/search-expectations.ts';

/** A located hit: its bucket (identifier hits, then text buckets), its sort key and seq. */
export interface Located {
  bucket: number;
  key: PositionKeyPart;
  seq: number;
}

export function sortKey(query: NormalisedProductQuery, product: ProductRecord): PositionKeyPart {
  return query.orderBy === 'relevance' ? null : sortValue(query.orderBy, product);
}

/** Text compares as SQLite does, byte by byte in UTF-8. */
function compareKeys(a: PositionKeyPart, b: PositionKeyPart): number {
  if (a === b) return 0;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return (a as number) < (b as number) ? -1 : 1;
}

/** Bucket first; within one, the key then the seq in the query's direction (relevance: seq ascending). */
export function compareLocated(query: NormalisedProductQuery, a: Located, b: Located): number {
  if (a.bucket !== b.bucket) return a.bucket - b.bucket;
  const sign = query.orderBy === 'relevance' || query.direction === 'asc' ? 1 : -1;
  return (compareKeys(a.key, b.key) || a.seq - b.seq) * sign;
}
