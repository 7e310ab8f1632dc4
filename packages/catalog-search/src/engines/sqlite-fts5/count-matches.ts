import { statement } from '@catalog/store/sqlite-reading';
import { matchProductText } from '../../query/search-terms.ts';
import { bind, type Params } from './bind.ts';
import { type BucketContext, notIdentifierHit, onlyArchivedFilter } from './bucket-sql.ts';
import { textMatchSql } from './text-match-plan.ts';

function count(ctx: BucketContext, sql: string, params: Params): number {
  return (statement(ctx.db, sql).get(bind(sql, params)) as { n: number }).n;
}

/**
 * Products in the catalogue (live, or all), from the trigger-maintained facet counts: every product
 * has exactly one brandName entry (empty values included), in the same snapshot as the page.
 * Counting the table instead reads every (wide) row: 0.6 ms at 5,000 products.
 */
function catalogueSize(ctx: BucketContext, includeArchived: boolean): number {
  const sql = `SELECT coalesce(sum(n), 0) AS n FROM facet_counts
    WHERE facet = 'brandName' AND (archived = 0 OR :includeArchived)`;
  return count(ctx, sql, { includeArchived: includeArchived ? 1 : 0 });
}

/**
 * How many products the text matches, estimated from where a capped count stopped: the full-text
 * index lists its matches in seq order, so a count that reached its cap at seq `last` has seen the
 * share `last / max(seq)` of the catalogue.
 */
export interface TextMatchEstimate {
  matches: number;
  /** The matches' share of the products a sort walk passes over. */
  share: number;
}

export interface MatchCount {
  n: number;
  /** Only when a text count stopped at its cap with no filter but `archived` (plan `index`). */
  estimate: TextMatchEstimate | null;
  /**
   * Every text match (passing the filters, identifier hits left out) as a JSON list, when a sorted
   * search's count saw them all: its bucket sorts them without asking the full-text index again.
   */
  listed: string | null;
}

function estimate(ctx: BucketContext, counted: number, last: number): TextMatchEstimate {
  const { n: maxSeq } = statement(ctx.db, 'SELECT coalesce(max(seq), 0) AS n FROM products').get() as {
    n: number;
  };
  const matches = (counted * maxSeq) / Math.max(last, 1);
  const walked = Math.max(catalogueSize(ctx, ctx.query.includeArchived), 1);
  return { matches, share: Math.min(1, matches / walked) };
}

/** Matches counted only up to `limit` (`SELECT count(*) FROM (... LIMIT n)`): cheap at any size. */
export function countMatches(ctx: BucketContext, identifierHits: number, limit: number): MatchCount {
  const { terms, identifier } = ctx.query;
  const none = { estimate: null, listed: null };
  if (identifier === null) {
    if (onlyArchivedFilter(ctx.query)) {
      return { n: Math.min(limit, catalogueSize(ctx, ctx.query.includeArchived)), ...none };
    }
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM products p WHERE 1${ctx.filters.sql} LIMIT :cap)`;
    return { n: count(ctx, sql, { ...ctx.filters.params, cap: limit }), ...none };
  }
  if (terms.length === 0) return { n: identifierHits, ...none };
  const cap = Math.max(1, limit - identifierHits);
  const match = matchProductText(terms, ctx.query.includeArchived, ctx.prefixes.expansions);
  const { from, where } = textMatchSql(ctx.textPlan, ctx.filters);
  const matches = `FROM ${from} WHERE ${where}${notIdentifierHit(ctx, 'product_fts.rowid')}`;
  const params = { ...ctx.filters.params, match, excluded: ctx.excluded, cap };
  // A sorted bucket reuses the list (about 20 ns a match to build, under the cap).
  const list = ctx.query.orderBy === 'relevance' ? 'NULL' : 'json_group_array(seq)';
  // When the term list bounds the matches below the cap, the count needs no LIMIT, which costs
  // about a sixth more per match; otherwise streaming the text matches stops at the cap.
  const sql =
    ctx.prefixes.upperBound <= cap
      ? `SELECT count(*) AS n, max(seq) AS last, ${list} AS listed FROM (SELECT product_fts.rowid AS seq ${matches})`
      : `SELECT count(*) AS n, max(seq) AS last, ${list} AS listed FROM (SELECT product_fts.rowid AS seq ${matches} LIMIT :cap)`;
  const row = statement(ctx.db, sql).get(bind(sql, params)) as {
    n: number;
    last: number | null;
    listed: string | null;
  };
  const stopped = row.n >= cap && row.last !== null;
  return {
    n: identifierHits + row.n,
    estimate: stopped && ctx.textPlan === 'index' ? estimate(ctx, row.n, row.last as number) : null,
    listed: stopped ? null : row.listed,
  };
}
