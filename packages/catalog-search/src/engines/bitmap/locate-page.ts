import type { ProductAggregations, SortField } from '@catalog/store';
import type { CursorPosition, ProductSearchJob } from '../../engine/search-engine.ts';
import type { NormalisedProductQuery } from '../../query/normalise-product-query.ts';
import { toBucketPosition, toCursorPosition } from '../sqlite-fts5/bucket-position.ts';
import type { CatalogueIndex } from './catalogue-index.ts';
import { countFacets } from './count-facets.ts';
import { RoaringBitmap32 } from './roaring.ts';
import { comparable, sortKeyOf } from './sort-keys.ts';
import type { SortOrder } from './sort-order.ts';
import { termPattern } from './text-tokens.ts';

// The buckets of the FTS5 engine's plan, so that a cursor means the same in both engines:
// identifier hits, then (by relevance) products with every term in the name, then the others.
const IDENTIFIER_BUCKET = 0;
const FIRST_BUCKET = 1;
const OTHER_TEXT_BUCKET = 2;

interface Bucket {
  id: number;
  members: RoaringBitmap32;
}

interface LocatedRow {
  bucket: number;
  seq: number;
  k: string | number | null;
}

/** A page located in the index: the seqs to materialise, and what the neutral layer needs. */
export interface LocatedPage {
  seqs: number[];
  last: CursorPosition | null;
  hasMore: boolean;
  total: number;
  totalIsLowerBound: boolean;
  aggregations?: ProductAggregations;
}

/** What a search reads of the index beside the index itself: each sort field's order. */
export type SortOrders = (field: SortField) => SortOrder;

/** The filters of spec 4.1 as one bitmap. */
function filtered(index: CatalogueIndex, query: NormalisedProductQuery, orders: SortOrders): RoaringBitmap32 {
  const set = (query.includeArchived ? index.all : index.live).clone();
  if (query.brandName !== null) {
    const id = index.brandName.idOf(query.brandName);
    set.andInPlace(
      id === undefined ? new RoaringBitmap32() : (index.brandName.bitmaps[id] as RoaringBitmap32),
    );
  }
  if (query.displayOnWeb !== null) {
    const channel = query.channel !== null && index.hasChannel(query.channel) ? query.channel : null;
    const shown = index.shownOnWeb(channel);
    if (query.displayOnWeb) set.andInPlace(shown);
    else set.andNotInPlace(shown);
  }
  if (query.updatedAfterMs !== null) set.andInPlace(orders('updatedAt').above(query.updatedAfterMs));
  return set;
}

/** The buckets in order, and the whole match set. */
function buckets(
  index: CatalogueIndex,
  query: NormalisedProductQuery,
  filters: RoaringBitmap32,
): { buckets: Bucket[]; matches: RoaringBitmap32 } {
  if (query.identifier === null)
    return { buckets: [{ id: FIRST_BUCKET, members: filters }], matches: filters };
  const identified = new RoaringBitmap32(index.identifierHits(query.identifier)).andInPlace(filters);
  const out: Bucket[] = identified.isEmpty ? [] : [{ id: IDENTIFIER_BUCKET, members: identified }];
  if (query.terms.length === 0) return { buckets: out, matches: identified };
  const patterns = query.terms.map(termPattern);
  const text = filters.clone();
  for (const pattern of patterns) {
    if (text.isEmpty) break;
    text.andInPlace(index.text.match(pattern, 'any'));
  }
  text.andNotInPlace(identified);
  const matches = RoaringBitmap32.or(identified, text);
  if (query.orderBy !== 'relevance') {
    out.push({ id: FIRST_BUCKET, members: text });
    return { buckets: out, matches };
  }
  const inName = text.clone();
  for (const pattern of patterns) {
    if (inName.isEmpty) break;
    inName.andInPlace(index.text.match(pattern, 'name'));
  }
  out.push(
    { id: FIRST_BUCKET, members: inName },
    { id: OTHER_TEXT_BUCKET, members: text.andNotInPlace(inName) },
  );
  return { buckets: out, matches };
}

/** Rows of one bucket from the cursor on: by seq in relevance order, else by the sort order. */
function bucketRows(
  index: CatalogueIndex,
  query: NormalisedProductQuery,
  orders: SortOrders,
  bucket: Bucket,
  after: { key: string | number | null; seq: number } | null,
  limit: number,
): LocatedRow[] {
  if (query.orderBy === 'relevance') {
    const offset = after === null ? 0 : bucket.members.rank(after.seq);
    const seqs = bucket.members.rangeUint32Array(new Uint32Array(limit), offset, limit);
    return [...seqs].map((seq) => ({ bucket: bucket.id, seq, k: null }));
  }
  const position =
    after === null
      ? null
      : { key: comparable(sortKeyOf(index, query.orderBy), after.key ?? ''), seq: after.seq };
  return orders(query.orderBy)
    .rows(bucket.members, query.direction === 'desc', position, limit)
    .map((row) => ({ bucket: bucket.id, ...row }));
}

/** One page of `job` located in the index as it is now (the caller holds it still). */
export function locatePage(index: CatalogueIndex, orders: SortOrders, job: ProductSearchJob): LocatedPage {
  const { query } = job;
  const after = job.after === null ? null : toBucketPosition(job.after);
  const { buckets: inOrder, matches } = buckets(index, query, filtered(index, query, orders));
  const want = query.from + query.size + 1;
  const rows: LocatedRow[] = [];
  for (const bucket of inOrder) {
    if (after !== null && bucket.id < after.bucket) continue;
    const from = after !== null && after.bucket === bucket.id ? after : null;
    rows.push(...bucketRows(index, query, orders, bucket, from, want - rows.length));
    if (rows.length >= want) break;
  }
  const pageRows = rows.slice(query.from, query.from + query.size);
  const lastRow = pageRows.at(-1);
  const n = matches.size;
  const page: LocatedPage = {
    seqs: pageRows.map((row) => row.seq),
    last:
      lastRow === undefined
        ? null
        : toCursorPosition({ bucket: lastRow.bucket, key: lastRow.k, seq: lastRow.seq }),
    hasMore: rows.length > query.from + query.size,
    ...(job.knownTotal ?? { total: Math.min(n, job.totalCap), totalIsLowerBound: n > job.totalCap }),
  };
  if (query.aggregations) page.aggregations = countFacets(index, matches);
  return page;
}
