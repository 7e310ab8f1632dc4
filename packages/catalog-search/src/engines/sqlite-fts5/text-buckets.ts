import { matchProductName, matchProductText, testsWithoutMerging } from '../../query/search-terms.ts';
import type { Params } from './bind.ts';
import type { BucketPosition } from './bucket-position.ts';
import {
  allRows,
  type BucketContext,
  type CursorSeeks,
  drivenByFilter,
  IN_TEXT_MATCHES,
  keysetParams,
  notIdentifierHit,
  ordering,
  type Row,
} from './bucket-sql.ts';
import { SORT_COLUMNS } from './sort-columns.ts';
import { textMatchSql } from './text-match-plan.ts';

export interface Bucket {
  id: number;
  fetch: (after: BucketPosition | null, limit: number) => Row[];
}

/** Rows of one text bucket in relevance order, i.e. by seq (= FTS5 rowid). */
function relevanceBucket(
  ctx: BucketContext,
  match: string,
  after: BucketPosition | null,
  limit: number,
): Row[] {
  const { from, where } = textMatchSql(ctx.textPlan, ctx.filters);
  const keyset = after === null ? '' : ' AND product_fts.rowid > :afterSeq';
  // Streams the matches in rowid order and stops at the limit: no match list is built.
  const sql = `SELECT product_fts.rowid AS seq, NULL AS k FROM ${from} WHERE ${where}${keyset}${notIdentifierHit(ctx, 'product_fts.rowid')}
    ORDER BY product_fts.rowid LIMIT :limit`;
  const params = { ...ctx.filters.params, ...keysetParams(after), match, excluded: ctx.excluded, limit };
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
 * Probing the full-text index for one walked row (a rowid lookup in the terms' doclists) costs
 * about as much as listing this many matches: 3–6 µs against 0.1 µs at 1M products.
 */
const LISTED_PER_PROBE = 50;

/**
 * A saturated count over dense matches: each row of the sort walk is probed in the full-text index
 * instead of listing every match first. A first page of "radiator" (96,794 of 1M products) by
 * price walks about 230 rows, 0.8 ms; listing took 9.8 ms. Sorted keys can gather the matches late
 * in the walk (radiators sorted by category), so the walk passes over at most a budget of rows
 * that costs no more than the listing it replaces, and is only tried where twice the expected
 * probes fit (an even spread needs 0.6–1.5 times the expectation). Null when it was not tried or
 * the budget held fewer than `limit` matches: the caller then lists. Only without filters but
 * `archived`, which the sort index holds: another filter would read every walked row. Only when
 * every term is tested without a doclist merge: a prefix FTS5 merges would be merged again for
 * every walked row (12.8 s instead of 22 ms at 1M, when the saturated walk first probed this way).
 *
 * The walk is a co-routine (a subquery with LIMIT is never flattened into a filtering query), so
 * its rows are probed in the walk's order and the outer LIMIT stops it.
 */
function probedWalk(
  ctx: BucketContext,
  match: string,
  after: BucketPosition | null,
  limit: number,
): Row[] | null {
  const estimate = ctx.textEstimate;
  if (!ctx.saturated || ctx.textPlan !== 'index' || estimate === null) return null;
  if (!ctx.query.terms.every((term) => testsWithoutMerging(term, ctx.prefixes.expansions))) return null;
  const budget = Math.ceil(estimate.matches / LISTED_PER_PROBE);
  if ((2 * limit) / estimate.share > budget) return null;
  const order = ordering(ctx.query);
  const { index } = SORT_COLUMNS[ctx.query.orderBy as keyof typeof SORT_COLUMNS];
  const keyset = after === null ? '' : order.keysetSql(false);
  const sql = `SELECT w.seq AS seq, w.k AS k FROM (
      SELECT p.seq AS seq, ${order.keyExpr} AS k FROM products p INDEXED BY ${index}
      WHERE 1${keyset}${ctx.filters.sql} ORDER BY ${order.orderSql(false)} LIMIT :budget) AS w
    WHERE EXISTS (SELECT 1 FROM product_fts WHERE product_fts MATCH :match AND product_fts.rowid = w.seq)${notIdentifierHit(ctx, 'w.seq')}
    LIMIT :limit`;
  const params = {
    ...ctx.filters.params,
    ...keysetParams(after),
    match,
    excluded: ctx.excluded,
    budget,
    limit,
  };
  const rows = allRows(ctx.db, sql, params);
  return rows.length === limit ? rows : null;
}

/**
 * A sort-index walk from a cursor, as two seeks: the rest of the cursor's key (key equal, seq
 * beyond), then the keys beyond it. SQLite seeks a (key, seq) index on the key alone for the
 * equivalent `(key, seq) > (:afterKey, :afterSeq)`, so each page passed over every row before the
 * cursor that shares its key again: a catalogue loaded in one transaction shares one updatedAt, and
 * at 1M products a full sync's pages took 33–61 ms from the middle on instead of 0.05 ms; a sort by
 * category passes over a whole category's rows. The first part is never longer than the page.
 */
function walkFromCursor(seeks: CursorSeeks, select: (position: string) => string): string {
  // The compound's ORDER BY takes the key's collation from the first part's column.
  return `SELECT seq, k FROM (${select(seeks.sameKey)}) UNION ALL SELECT seq, k FROM (${select(seeks.laterKeys)})
    ORDER BY ${seeks.order} LIMIT :limit`;
}

/**
 * Rows of a sorted bucket. A small match set is collected and sorted; once the capped count
 * saturates, the (key, seq) sort index is walked and each row tested against the match list. A
 * brand smaller than the text (text-match-plan.ts) is listed instead and the text matches probed
 * against it: a first page of "radiator" sorted by name within a brand of some 1,200 of 1M
 * products, 51 ms → 17 ms. A count under the cap listed every match already: that list is sorted.
 * Where it pays, a saturated walk probes the full-text index instead (probedWalk).
 *
 * `match` may match archived products too: the filters on `p` take them out.
 */
function sortedBucket(
  ctx: BucketContext,
  match: string | null,
  after: BucketPosition | null,
  limit: number,
): Row[] {
  if (match !== null) {
    const probed = probedWalk(ctx, match, after, limit);
    if (probed !== null) return probed;
  }
  const walk = ctx.saturated || (match === null && indexWalkPays(ctx.query));
  const order = ordering(ctx.query);
  const { index } = SORT_COLUMNS[ctx.query.orderBy as keyof typeof SORT_COLUMNS];
  const keyset = after === null ? '' : order.keysetSql(!walk);
  let source = walk ? `products p INDEXED BY ${index}` : 'products p';
  let conditions = `${ctx.filters.sql}${match === null ? '' : ` AND ${IN_TEXT_MATCHES}${notIdentifierHit(ctx)}`}`;
  let listed: Params = {};
  if (match !== null && !walk && ctx.listedMatches !== null) {
    conditions = `${ctx.filters.sql} AND p.seq IN (SELECT value FROM json_each(:listed))`;
    listed = { listed: ctx.listedMatches };
  } else if (match !== null && !walk && ctx.textPlan === 'filter-list') {
    source = 'product_fts JOIN products p ON p.seq = product_fts.rowid';
    conditions = ` AND ${textMatchSql(ctx.textPlan, ctx.filters).where}${notIdentifierHit(ctx)}`;
  }
  const select = (
    position: string,
  ) => `SELECT p.seq AS seq, ${order.keyExpr} AS k FROM ${source} WHERE 1${position}${conditions}
    ORDER BY ${order.orderSql(!walk)} LIMIT :limit`;
  const seeks = walk && after !== null ? order.cursorSeeks : null;
  const sql = seeks === null ? select(keyset) : walkFromCursor(seeks, select);
  const params = { ...ctx.filters.params, ...keysetParams(after), ...listed, excluded: ctx.excluded, limit };
  return allRows(ctx.db, sql, match === null ? params : { ...params, match });
}

/** The buckets after the identifier hits: all rows without q; text matches with it. */
export function textBuckets(ctx: BucketContext): Bucket[] {
  const { terms, orderBy, identifier } = ctx.query;
  if (identifier === null) return [{ id: 1, fetch: (after, limit) => sortedBucket(ctx, null, after, limit) }];
  if (terms.length === 0) return [];
  const { expansions } = ctx.prefixes;
  const allTerms = matchProductText(terms, ctx.query.includeArchived, expansions);
  if (orderBy !== 'relevance') {
    // The products row decides `archived`; a column filter costs about a fifth more per match.
    const anyColumn = matchProductText(terms, true, expansions);
    return [{ id: 1, fetch: (after, limit) => sortedBucket(ctx, anyColumn, after, limit) }];
  }
  const inName = matchProductName(terms, ctx.query.includeArchived, expansions);
  return [
    { id: 1, fetch: (after, limit) => relevanceBucket(ctx, inName, after, limit) },
    { id: 2, fetch: (after, limit) => relevanceBucket(ctx, `(${allTerms}) NOT (${inName})`, after, limit) },
  ];
}
