import type { DatabaseSync } from 'node:sqlite';
import { inReadTransaction, statement, toBrand } from '@catalog/store/sqlite-reading';
import type { BrandSearchJob, BrandSearchOutcome } from '../../engine/search-engine.ts';
import { matchAllTerms } from '../../query/search-terms.ts';
import { bind } from './bind.ts';

const BRAND_COLUMNS = 'b.seq, b.id, b.name, b.slug, b.archived, b.created_at, b.updated_at';

/** Brands are few (thousands at most): exact totals, sorted by name. */
export function runBrandSearch(db: DatabaseSync, job: BrandSearchJob): BrandSearchOutcome {
  if (job.matchNothing) return { brands: [], total: 0 };
  return inReadTransaction(db, () => {
    const source =
      job.terms.length === 0
        ? 'FROM brands b WHERE (b.archived = 0 OR :includeArchived)'
        : 'FROM brand_fts JOIN brands b ON b.seq = brand_fts.rowid WHERE brand_fts MATCH :match AND (b.archived = 0 OR :includeArchived)';
    const params = {
      includeArchived: job.includeArchived ? 1 : 0,
      match: matchAllTerms(job.terms),
      from: job.from,
      size: job.size,
    };
    const countSql = `SELECT count(*) AS n ${source}`;
    const total = (statement(db, countSql).get(bind(countSql, params)) as { n: number }).n;
    const pageSql = `SELECT ${BRAND_COLUMNS} ${source} ORDER BY b.name COLLATE NOCASE, b.seq LIMIT :size OFFSET :from`;
    const rows = statement(db, pageSql).all(bind(pageSql, params)) as unknown as Parameters<
      typeof toBrand
    >[0][];
    return { brands: rows.map(toBrand), total };
  });
}
