import { matchProductName, matchProductText } from '../../../search/search-terms.ts';
import type { CursorPosition } from '../../../search/sync-token.ts';
import {
  allRows,
  type BucketContext,
  drivenByFilter,
  FROM_TEXT,
  IN_TEXT_MATCHES,
  keysetParams,
  notIdentifierHit,
  onlyArchivedFilter,
  ordering,
  type Row,
} from './bucket-sql.ts';
import { SORT_COLUMNS } from './sort-columns.ts';

export interface Bucket {
  id: number;
  fetch: (after: CursorPosition | null, limit: number) => Row[];
}

/** Rows of one text bucket in relevance order, i.e. by seq (= FTS5 rowid). */
function relevanceBucket(
  ctx: BucketContext,
  match: string,
  after: CursorPosition | null,
  limit: number,
): Row[] {
  const params = { ...ctx.filters.params, ...keysetParams(after), match, excluded: ctx.excluded, limit };
  let sql: string;
  if (drivenByFilter(ctx.query)) {
    const keyset = after === null ? '' : ' AND p.seq > :afterSeq';
    sql = `SELECT p.seq AS seq, NULL AS k FROM products p WHERE ${IN_TEXT_MATCHES}${keyset}${ctx.filters.sql}${notIdentifierHit(ctx)}
      ORDER BY p.seq LIMIT :limit`;
  } else if (onlyArchivedFilter(ctx.query)) {
    // The match decides `archived`: the index alone answers, without reading a products row.
    const keyset = after === null ? '' : ' AND rowid > :afterSeq';
    sql = `SELECT rowid AS seq, NULL AS k FROM product_fts WHERE product_fts MATCH :match${keyset}${notIdentifierHit(ctx, 'rowid')}
      ORDER BY rowid LIMIT :limit`;
  } else {
    // Streams the matches in rowid order and stops at the limit: no match list is built.
    const keyset = after === null ? '' : ' AND product_fts.rowid > :afterSeq';
    sql = `SELECT p.seq AS seq, NULL AS k ${FROM_TEXT}${keyset}${ctx.filters.sql}${notIdentifierHit(ctx)}
      ORDER BY product_fts.rowid LIMIT :limit`;
  }
  return allRows(ctx.db, sql, params);
}

/**
 * Without text, only a brandName or updatedAfter filter has an index that narrows the rows, so
 * sorting "the match set" means reading and sorting the whole (filtered) table, 0.7 ms at 5,000
 * products, while walking the sort index stops after `limit` qualifying rows. updatedAfter with the
 * updatedAt order is a range of that same index.
 */
function indexWalkPays(query: BucketContext['query']): boolean {
  if (drivenByFilter(query)) return false;
  return query.updatedAfterMs === null || query.orderBy === 'updatedAt';
}

/**
 * Rows of a sorted bucket. A small match set is collected and sorted; once the capped count
 * saturates, the (key, seq) sort index is walked and each row tested against the match list.
 */
function sortedBucket(
  ctx: BucketContext,
  match: string | null,
  after: CursorPosition | null,
  limit: number,
): Row[] {
  const order = ordering(ctx.query);
  const { index } = SORT_COLUMNS[ctx.query.orderBy as keyof typeof SORT_COLUMNS];
  const walk = ctx.saturated || (match === null && indexWalkPays(ctx.query));
  const keyset = after === null ? '' : order.keysetSql(!walk);
  const source = walk ? `products p INDEXED BY ${index}` : 'products p';
  const text = match === null ? '' : ` AND ${IN_TEXT_MATCHES}${notIdentifierHit(ctx)}`;
  const sql = `SELECT p.seq AS seq, ${order.keyExpr} AS k FROM ${source} WHERE 1${keyset}${ctx.filters.sql}${text}
    ORDER BY ${order.orderSql(!walk)} LIMIT :limit`;
  const params = { ...ctx.filters.params, ...keysetParams(after), excluded: ctx.excluded, limit };
  return allRows(ctx.db, sql, match === null ? params : { ...params, match });
}

/** The buckets after the identifier hits: all rows without q; text matches with it. */
export function textBuckets(ctx: BucketContext): Bucket[] {
  const { terms, orderBy, identifier } = ctx.query;
  if (identifier === null) return [{ id: 1, fetch: (after, limit) => sortedBucket(ctx, null, after, limit) }];
  if (terms.length === 0) return [];
  const { expansions } = ctx.prefixes;
  const allTerms = matchProductText(terms, ctx.query.includeArchived, expansions);
  if (orderBy !== 'relevance')
    return [{ id: 1, fetch: (after, limit) => sortedBucket(ctx, allTerms, after, limit) }];
  const inName = matchProductName(terms, ctx.query.includeArchived, expansions);
  return [
    { id: 1, fetch: (after, limit) => relevanceBucket(ctx, inName, after, limit) },
    { id: 2, fetch: (after, limit) => relevanceBucket(ctx, `(${allTerms}) NOT (${inName})`, after, limit) },
  ];
}
