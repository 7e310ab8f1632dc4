import type { NormalisedProductQuery, PositionKeyPart } from '@catalog/search';
import type { ProductRecord } from '@catalog/store';

/** SQLite's NOCASE, which the FTS5 engine's text sort columns use, folds ASCII letters only. */
const nocase = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
/** The FTS5 engine sorts a missing price or cost as this (its generated *_sort columns). */
const UNSET = -1e300;

type Field = Exclude<NormalisedProductQuery['orderBy'], 'relevance'>;

const SORT_VALUE: Record<Field, (p: ProductRecord) => string | number> = {
  name: (p) => nocase(p.name),
  code: (p) => nocase(p.productCode),
  brand: (p) => nocase(p.brandName),
  price: (p) => p.price ?? UNSET,
  category: (p) => nocase(p.category),
  department: (p) => nocase(p.department),
  subDepartment: (p) => nocase(p.subDepartment),
  supplierCost: (p) => p.supplierCost ?? UNSET,
  createdAt: (p) => Date.parse(p.createdAt),
  updatedAt: (p) => Date.parse(p.updatedAt),
};

/** A located hit: its bucket (identifier hits, then text buckets), its sort key and seq. */
export interface Located {
  bucket: number;
  key: PositionKeyPart;
  seq: number;
}

export function sortKey(query: NormalisedProductQuery, product: ProductRecord): PositionKeyPart {
  return query.orderBy === 'relevance' ? null : SORT_VALUE[query.orderBy](product);
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
