import type { DatabaseSync } from 'node:sqlite';
import { statement } from '@catalog/store/sqlite-reading';
import type { NormalisedProductQuery } from '../../query/normalise-product-query.ts';
import { bind, type Params } from './bind.ts';
import type { BucketPosition } from './bucket-position.ts';
import type { TextMatchEstimate } from './count-matches.ts';
import type { FilterSql } from './filter-sql.ts';
import { SORT_COLUMNS } from './sort-columns.ts';
import type { PrefixExpansions } from './term-expansions.ts';
import type { TextMatchPlan } from './text-match-plan.ts';

/** A located row: its seq and its sort key (null in relevance order). */
export interface Row {
  seq: number;
  k: string | number | null;
}

/** What every bucket of one search shares. */
export interface BucketContext {
  db: DatabaseSync;
  query: NormalisedProductQuery;
  filters: FilterSql;
  /** JSON list of the identifier hits, which the text buckets leave out. */
  excluded: string;
  /** The capped count reached its cap: walk the sort index instead of sorting the matches. */
  saturated: boolean;
  /** The index terms of the query's prefix terms, read in this snapshot. */
  prefixes: PrefixExpansions;
  /** How the text matches passing the filters are found. */
  textPlan: TextMatchPlan;
  /** How many products the text matches, when a capped count could tell (count-matches.ts). */
  textEstimate: TextMatchEstimate | null;
  /** Every text match as a JSON list of seqs, when a sorted search's count saw them all. */
  listedMatches: string | null;
}

/**
 * Leaves the identifier hits out of a text bucket. Without hits (the usual case) the condition is
 * left out altogether: even an empty list costs a per-row probe, 0.15 ms over 2,000 matches.
 */
export function notIdentifierHit(ctx: BucketContext, column = 'p.seq'): string {
  return ctx.excluded === '[]' ? '' : ` AND ${column} NOT IN (SELECT value FROM json_each(:excluded))`;
}

/**
 * FTS5 rebuilds a prefix term's whole doclist on every evaluation, so a per-row membership test
 * (EXISTS ... rowid = p.seq) pays a full scan each time. `IN (subquery)` builds the match list
 * once per statement; SQLite then probes it while walking whichever index drives the query.
 */
export const IN_TEXT_MATCHES = 'p.seq IN (SELECT rowid FROM product_fts WHERE product_fts MATCH :match)';

/**
 * No filter but (possibly) `archived`, which the text match itself decides (matchProductText):
 * text rows need not be joined to their products row.
 */
export function onlyArchivedFilter(query: NormalisedProductQuery): boolean {
  return query.brandName === null && query.updatedAfterMs === null && query.displayOnWeb === null;
}

/** Without text, a brand filter is selective: its (brand_name, seq) index should drive. */
export function drivenByFilter(query: NormalisedProductQuery): boolean {
  return query.brandName !== null;
}

/** A sort-index walk continued from a cursor in two seeks (text-buckets.ts, walkFromCursor). */
export interface CursorSeeks {
  /** The rest of the cursor's key: key equal, seq beyond. */
  sameKey: string;
  /** The keys beyond the cursor's. */
  laterKeys: string;
  /** ORDER BY of the two parts' rows (`k`, `seq`) together. */
  order: string;
}

export interface Ordering {
  keyExpr: string;
  orderSql: (plain: boolean) => string;
  keysetSql: (plain: boolean) => string;
  /** Null in relevance order, whose keyset is the seq alone. */
  cursorSeeks: CursorSeeks | null;
}

/** ORDER BY and keyset condition of the query's order; `plain` hides the sort index from the planner. */
export function ordering(query: NormalisedProductQuery): Ordering {
  if (query.orderBy === 'relevance') {
    return {
      keyExpr: 'NULL',
      orderSql: () => 'p.seq',
      keysetSql: () => ' AND p.seq > :afterSeq',
      cursorSeeks: null,
    };
  }
  const { column } = SORT_COLUMNS[query.orderBy];
  const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
  const op = query.direction === 'asc' ? '>' : '<';
  // A unary + keeps the column's collation but hides its index, so SQLite sorts the (small)
  // match set instead of walking the sort index.
  const ref = (plain: boolean) => (plain ? `+p.${column}` : `p.${column}`);
  const seq = (plain: boolean) => (plain ? '+p.seq' : 'p.seq');
  return {
    keyExpr: `p.${column}`,
    orderSql: (plain) => `${ref(plain)} ${dir}, ${seq(plain)} ${dir}`,
    keysetSql: (plain) => ` AND (${ref(plain)}, ${seq(plain)}) ${op} (:afterKey, :afterSeq)`,
    cursorSeeks: {
      sameKey: ` AND p.${column} = :afterKey AND p.seq ${op} :afterSeq`,
      laterKeys: ` AND p.${column} ${op} :afterKey`,
      order: `k ${dir}, seq ${dir}`,
    },
  };
}

export function keysetParams(after: BucketPosition | null): Params {
  return after === null ? {} : { afterKey: after.key, afterSeq: after.seq };
}

export function allRows(db: DatabaseSync, sql: string, params: Params): Row[] {
  return statement(db, sql).all(bind(sql, params)) as unknown as Row[];
}
