import type { DatabaseSync } from 'node:sqlite';
import { statement } from '@catalog/store/sqlite-reading';
import type { NormalisedProductQuery } from '../../query/normalise-product-query.ts';
import { onlyArchivedFilter } from './bucket-sql.ts';
import type { FilterSql } from './filter-sql.ts';

/**
 * How the text matches that pass the filters are found. Each plan streams the matches from the
 * full-text index in rowid (= seq) order, so a relevance page stops at its limit.
 * - `index`: no filter but `archived`, which the match itself decides (matchProductText): the index
 *   alone answers, without reading a products row.
 * - `rows`: each match's products row is read and the filters tested on it.
 * - `filter-list`: the products passing the filters are listed once per statement through the
 *   brandName index, and each match is probed against that list instead of reading its row.
 */
export type TextMatchPlan = 'index' | 'rows' | 'filter-list';

/** The products of one brand (exact name), from the trigger-maintained facet counts. */
function brandSize(db: DatabaseSync, brandName: string, includeArchived: boolean): number {
  const sql = `SELECT coalesce(sum(n), 0) AS n FROM facet_counts
    WHERE facet = 'brandName' AND value = ? AND (archived = 0 OR ?)`;
  return (statement(db, sql).get(brandName, includeArchived ? 1 : 0) as { n: number }).n;
}

/**
 * Reads the smaller side whole. With a brandName filter, a brand with fewer products than the text
 * can match (`textUpperBound`, from the index's term list; unbounded for a prefix it could not
 * expand) is listed and probed; otherwise each text match reads its row. The brand index used to
 * drive, against the list of every text match, which SQLite probed once per text match: at 1M
 * products, a brand of 1,143 products with "radiator" (99,835 products) took 39 ms to count and
 * 24 ms for the two relevance buckets; listing the brand instead, 7 ms and 8 ms.
 */
export function chooseTextMatchPlan(
  db: DatabaseSync,
  query: NormalisedProductQuery,
  textUpperBound: number,
): TextMatchPlan {
  if (onlyArchivedFilter(query)) return 'index';
  if (query.brandName === null) return 'rows';
  return brandSize(db, query.brandName, query.includeArchived) <= textUpperBound ? 'filter-list' : 'rows';
}

/**
 * The FROM and WHERE of the text matches passing the filters, under `plan`; the matches' seq is
 * `product_fts.rowid`, the match text is bound as :match. The unary `+` keeps SQLite from handing
 * the filter list to FTS5 as rowid lookups, which would evaluate the match once per listed product.
 */
export function textMatchSql(plan: TextMatchPlan, filters: FilterSql): { from: string; where: string } {
  switch (plan) {
    case 'index':
      return { from: 'product_fts', where: 'product_fts MATCH :match' };
    case 'rows':
      return {
        from: 'product_fts JOIN products p ON p.seq = product_fts.rowid',
        where: `product_fts MATCH :match${filters.sql}`,
      };
    case 'filter-list':
      return {
        from: 'product_fts',
        where: `product_fts MATCH :match AND +product_fts.rowid IN (SELECT p.seq FROM products p WHERE 1${filters.sql})`,
      };
  }
}
