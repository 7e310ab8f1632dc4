import type { ProductAggregations } from '@catalog/store';
import type { CatalogueIndex } from './catalogue-index.ts';
import type { InternedColumn } from './interned-column.ts';
import type { RoaringBitmap32 } from './roaring.ts';

type Facet = keyof ProductAggregations;
const FACETS: readonly Facet[] = ['brandName', 'category', 'department', 'stockType'];

/**
 * Match sets up to this size are counted product by product through the value ids; larger ones
 * value by value, as the cardinality of each value's bitmap and the match set (a few µs each).
 */
const COUNTED_BY_PRODUCT = 50_000;

/** Values with their counts, largest first, then by value; empty values left out (as FTS5's). */
function ordered(column: InternedColumn, counts: ArrayLike<number>): Record<string, number> {
  const entries: Array<[string, number]> = [];
  for (let id = 0; id < counts.length; id += 1) {
    const n = counts[id] as number;
    const value = column.values[id] as string;
    if (n > 0 && value !== '') entries.push([value, n]);
  }
  entries.sort(([a, an], [b, bn]) => bn - an || (a < b ? -1 : 1));
  return Object.fromEntries(entries);
}

/** Counts per brandName, category, department and stockType over the whole match set. */
export function countFacets(index: CatalogueIndex, matches: RoaringBitmap32): ProductAggregations {
  const columns = FACETS.map((facet) => index[facet]);
  let counts: Int32Array[];
  if (matches.size <= COUNTED_BY_PRODUCT) {
    counts = columns.map((column) => new Int32Array(column.values.length));
    for (const seq of matches.toUint32Array()) {
      for (let f = 0; f < columns.length; f += 1) {
        const id = (columns[f] as InternedColumn).bySeq[seq] as number;
        if (id >= 0) (counts[f] as Int32Array)[id] = ((counts[f] as Int32Array)[id] as number) + 1;
      }
    }
  } else {
    counts = columns.map((column) =>
      Int32Array.from(column.bitmaps, (bitmap) => bitmap.andCardinality(matches)),
    );
  }
  return {
    brandName: ordered(index.brandName, counts[0] as Int32Array),
    category: ordered(index.category, counts[1] as Int32Array),
    department: ordered(index.department, counts[2] as Int32Array),
    stockType: ordered(index.stockType, counts[3] as Int32Array),
  };
}
