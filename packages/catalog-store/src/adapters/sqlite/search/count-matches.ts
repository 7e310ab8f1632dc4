import { matchAllTerms } from '../../../search/search-terms.ts';
import { statement } from '../statement-cache.ts';
import { bind, type Params } from './bind.ts';
import {
  type BucketContext,
  drivenByFilter,
  FROM_TEXT,
  IN_TEXT_MATCHES,
  NOT_IDENTIFIER_HIT,
} from './bucket-sql.ts';

function count(ctx: BucketContext, sql: string, params: Params): number {
  return (statement(ctx.db, sql).get(bind(sql, params)) as { n: number }).n;
}

/** Matches counted only up to `limit` (`SELECT count(*) FROM (... LIMIT n)`): cheap at any size. */
export function countMatches(ctx: BucketContext, identifierHits: number, limit: number): number {
  const { terms, identifier } = ctx.query;
  if (identifier === null) {
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM products p WHERE 1${ctx.filters.sql} LIMIT :cap)`;
    return count(ctx, sql, { ...ctx.filters.params, cap: limit });
  }
  if (terms.length === 0) return identifierHits;
  // Streaming the text matches stops at the cap; with a selective filter, the filter drives instead.
  const source = drivenByFilter(ctx.query) ? `FROM products p WHERE ${IN_TEXT_MATCHES}` : FROM_TEXT;
  const sql = `SELECT count(*) AS n FROM (SELECT 1 ${source}${ctx.filters.sql}${NOT_IDENTIFIER_HIT} LIMIT :cap)`;
  const params = {
    ...ctx.filters.params,
    match: matchAllTerms(terms),
    excluded: ctx.excluded,
    cap: Math.max(1, limit - identifierHits),
  };
  return identifierHits + count(ctx, sql, params);
}
