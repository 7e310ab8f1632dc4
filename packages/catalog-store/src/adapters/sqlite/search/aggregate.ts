import type { DatabaseSync } from 'node:sqlite';
import type { ProductAggregations } from '../../../model/search.ts';
import type { NormalisedProductQuery } from '../../../search/normalise-product-query.ts';
import { matchProductText, type TermExpansions } from '../../../search/search-terms.ts';
import { statement } from '../statement-cache.ts';
import { bind, type Params } from './bind.ts';
import { drivenByFilter, FROM_TEXT, IN_TEXT_MATCHES } from './bucket-sql.ts';
import type { FilterSql } from './filter-sql.ts';

type Facet = keyof ProductAggregations;
const FACETS: readonly Facet[] = ['brandName', 'category', 'department', 'stockType'];
// Grouping is exact (BINARY) although the columns sort without case, as the brandName filter is exact.
const COMBINATION = `p.brand_name AS brandName, p.category AS category, p.department AS department,
  p.stock_type AS stockType, count(*) AS n`;
const GROUP_BY =
  'GROUP BY p.brand_name COLLATE BINARY, p.category COLLATE BINARY, p.department COLLATE BINARY, p.stock_type';

type Combination = Record<Facet, string> & { n: number };

function onlyArchivedFilter(query: NormalisedProductQuery): boolean {
  return (
    query.identifier === null &&
    query.brandName === null &&
    query.updatedAfterMs === null &&
    query.displayOnWeb === null
  );
}

/** The unfiltered catalogue: read the trigger-maintained counts instead of every product. */
function catalogueCounts(
  db: DatabaseSync,
  includeArchived: boolean,
): Array<{ facet: Facet; value: string; n: number }> {
  const sql = `SELECT facet, value, sum(n) AS n FROM facet_counts
    WHERE n > 0 AND value <> '' AND (archived = 0 OR :includeArchived) GROUP BY facet, value`;
  return statement(db, sql).all({ includeArchived: includeArchived ? 1 : 0 }) as Array<{
    facet: Facet;
    value: string;
    n: number;
  }>;
}

/** One pass over the match set, grouped by the four facets together; split per facet afterwards. */
function matchSetCombinations(
  db: DatabaseSync,
  query: NormalisedProductQuery,
  filters: FilterSql,
  identifierHits: readonly number[],
  expansions: TermExpansions,
): Combination[] {
  const hits = JSON.stringify(identifierHits);
  const parts: Array<{ sql: string; params: Params }> = [];
  if (query.identifier === null) {
    parts.push({
      sql: `SELECT ${COMBINATION} FROM products p WHERE 1${filters.sql} ${GROUP_BY}`,
      params: filters.params,
    });
  } else {
    parts.push({
      sql: `SELECT ${COMBINATION} FROM products p WHERE p.seq IN (SELECT value FROM json_each(:hits)) ${GROUP_BY}`,
      params: { hits },
    });
    if (query.terms.length > 0) {
      parts.push({
        sql: `SELECT ${COMBINATION} ${drivenByFilter(query) ? `FROM products p WHERE ${IN_TEXT_MATCHES}` : FROM_TEXT}${filters.sql}
          AND p.seq NOT IN (SELECT value FROM json_each(:hits)) ${GROUP_BY}`,
        params: {
          ...filters.params,
          match: matchProductText(query.terms, query.includeArchived, expansions),
          hits,
        },
      });
    }
  }
  return parts.flatMap(
    ({ sql, params }) => statement(db, sql).all(bind(sql, params)) as unknown as Combination[],
  );
}

/** Values as a FacetCounts map, largest count first; empty values are left out. */
function facetCounts(counts: Map<string, number>): Record<string, number> {
  const ordered = [...counts]
    .filter(([value]) => value !== '')
    .sort(([a, an], [b, bn]) => bn - an || (a < b ? -1 : 1));
  return Object.fromEntries(ordered);
}

/** Counts per brandName, category, department and stockType over the whole match set. */
export function aggregate(
  db: DatabaseSync,
  query: NormalisedProductQuery,
  filters: FilterSql,
  identifierHits: readonly number[],
  expansions: TermExpansions = new Map(),
): ProductAggregations {
  const counts = new Map<Facet, Map<string, number>>(FACETS.map((facet) => [facet, new Map()]));
  const add = (facet: Facet, value: string, n: number) => {
    const values = counts.get(facet) as Map<string, number>;
    values.set(value, (values.get(value) ?? 0) + n);
  };
  if (onlyArchivedFilter(query)) {
    for (const row of catalogueCounts(db, query.includeArchived)) add(row.facet, row.value, row.n);
  } else {
    for (const row of matchSetCombinations(db, query, filters, identifierHits, expansions)) {
      for (const facet of FACETS) add(facet, row[facet], row.n);
    }
  }
  return {
    brandName: facetCounts(counts.get('brandName') as Map<string, number>),
    category: facetCounts(counts.get('category') as Map<string, number>),
    department: facetCounts(counts.get('department') as Map<string, number>),
    stockType: facetCounts(counts.get('stockType') as Map<string, number>),
  };
}
