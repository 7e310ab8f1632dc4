import type { DatabaseSync } from 'node:sqlite';
import type { NormalisedProductQuery } from '../../query/normalise-product-query.ts';
import type { BucketPosition } from './bucket-position.ts';
import { allRows, keysetParams, ordering, type Row } from './bucket-sql.ts';
import { IdentifierProbeFailure } from './engine-failures.ts';
import type { FilterSql } from './filter-sql.ts';
import { SORT_COLUMNS } from './sort-columns.ts';

/** Exact productCode/erpCode hits through their B-tree indexes; never through full text. */
function identifierSql(filters: FilterSql, select: string): string {
  return `SELECT ${select} FROM products p INDEXED BY products_product_code_key WHERE p.product_code_key = :identifier${filters.sql}
    UNION SELECT ${select} FROM products p INDEXED BY products_erp_code_key WHERE p.erp_code_key = :identifier${filters.sql}`;
}

/** Every identifier hit that passes the filters; a probe that cannot run fails the search. */
export function probeIdentifiers(
  db: DatabaseSync,
  query: NormalisedProductQuery,
  filters: FilterSql,
): number[] {
  if (query.identifier === null) return [];
  try {
    const sql = identifierSql(filters, 'p.seq AS seq, NULL AS k');
    return allRows(db, sql, { ...filters.params, identifier: query.identifier }).map((row) => row.seq);
  } catch (error) {
    throw new IdentifierProbeFailure(error);
  }
}

/** The identifier hits after the cursor, in the query's order. */
export function identifierPage(
  db: DatabaseSync,
  query: NormalisedProductQuery,
  filters: FilterSql,
  after: BucketPosition | null,
  limit: number,
): Row[] {
  const relevance = query.orderBy === 'relevance';
  const k = query.orderBy !== 'relevance' && SORT_COLUMNS[query.orderBy].text ? 'k COLLATE NOCASE' : 'k';
  const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
  const op = query.direction === 'asc' ? '>' : '<';
  let keyset = '';
  if (after !== null)
    keyset = relevance ? 'WHERE seq > :afterSeq' : `WHERE (${k}, seq) ${op} (:afterKey, :afterSeq)`;
  const orderBy = relevance ? 'seq' : `${k} ${dir}, seq ${dir}`;
  const union = identifierSql(filters, `p.seq AS seq, ${ordering(query).keyExpr} AS k`);
  const sql = `SELECT seq, k FROM (${union}) ${keyset} ORDER BY ${orderBy} LIMIT :limit`;
  try {
    return allRows(db, sql, {
      ...filters.params,
      ...keysetParams(after),
      identifier: query.identifier ?? '',
      limit,
    });
  } catch (error) {
    throw new IdentifierProbeFailure(error);
  }
}
