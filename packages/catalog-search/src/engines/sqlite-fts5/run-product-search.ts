import type { DatabaseSync } from 'node:sqlite';
import type { ProductRecord } from '@catalog/store';
import { inReadTransaction } from '@catalog/store/sqlite-reading';
import type { EnginePage, ProductSearchJob } from '../../engine/search-engine.ts';
import { aggregate } from './aggregate.ts';
import { type BucketPosition, toBucketPosition, toCursorPosition } from './bucket-position.ts';
import type { BucketContext, Row } from './bucket-sql.ts';
import { countMatches } from './count-matches.ts';
import { EngineFailure } from './engine-failures.ts';
import { filterSql } from './filter-sql.ts';
import { identifierPage, probeIdentifiers } from './identifier-bucket.ts';
import { expandPrefixTerms } from './term-expansions.ts';
import { type Bucket, textBuckets } from './text-buckets.ts';
import { chooseTextMatchPlan } from './text-match-plan.ts';

/**
 * Turns the page's seqs into hits, in that order, inside the search's snapshot; a seq it cannot
 * find is left out (and the page fails as incomplete).
 */
export type Materialise<Hit> = (db: DatabaseSync, seqs: readonly number[]) => Hit[];

/** Loads full records in the order of `seqs` (readProductsBySeq, or a worker's RecordCache). */
export type Hydrate = Materialise<ProductRecord>;

interface BucketRow extends Row {
  bucket: number;
}

const IDENTIFIER_BUCKET = 0;

/** Rows from the cursor on, bucket after bucket, until `want` rows (offset + page + 1) are found. */
function collectRows(
  ctx: BucketContext,
  identifierHits: readonly number[],
  after: BucketPosition | null,
  want: number,
): BucketRow[] {
  const buckets: Bucket[] = [];
  // The probe ran in this snapshot: no hit, no identifier bucket to page through.
  if (ctx.query.identifier !== null && identifierHits.length > 0) {
    buckets.push({
      id: IDENTIFIER_BUCKET,
      fetch: (from, limit) => identifierPage(ctx.db, ctx.query, ctx.filters, from, limit),
    });
  }
  buckets.push(...textBuckets(ctx));
  const rows: BucketRow[] = [];
  for (const bucket of buckets) {
    if (after !== null && bucket.id < after.bucket) continue;
    const from = after !== null && after.bucket === bucket.id ? after : null;
    for (const row of bucket.fetch(from, want - rows.length)) rows.push({ ...row, bucket: bucket.id });
    if (rows.length >= want) break;
  }
  return rows;
}

/** One page, proven complete within one read snapshot, or an exception. */
export function runProductSearch<Hit>(
  db: DatabaseSync,
  job: ProductSearchJob,
  materialise: Materialise<Hit>,
): EnginePage<Hit> {
  return inReadTransaction(db, () => {
    const { query } = job;
    const after = job.after === null ? null : toBucketPosition(job.after);
    const filters = filterSql(db, query);
    const identifierHits = probeIdentifiers(db, query, filters);
    const prefixes = expandPrefixTerms(db, query.terms);
    const ctx: BucketContext = {
      db,
      query,
      filters,
      excluded: JSON.stringify(identifierHits),
      saturated: false,
      prefixes,
      textPlan: chooseTextMatchPlan(db, query, prefixes.upperBound),
      textEstimate: null,
      listedMatches: null,
    };
    const want = query.from + query.size + 1;
    const capped = (n: number) => ({ total: Math.min(n, job.totalCap), totalIsLowerBound: n > job.totalCap });
    let totals = job.knownTotal;
    let rows: BucketRow[] | null = null;
    if (totals === null && query.orderBy === 'relevance' && after === null) {
      // Relevance plans do not depend on the count: fetch first, and when the whole match set
      // came back short of `want`, those rows are the count, with no second pass over the matches.
      rows = collectRows(ctx, identifierHits, null, want);
      if (rows.length < want) totals = capped(rows.length);
    }
    if (totals === null) {
      const counted = countMatches(ctx, identifierHits.length, job.totalCap + 1);
      totals = capped(counted.n);
      ctx.textEstimate = counted.estimate;
      ctx.listedMatches = counted.listed;
    }
    ctx.saturated = totals.totalIsLowerBound;
    rows ??= collectRows(ctx, identifierHits, after, want);
    const pageRows = rows.slice(query.from, query.from + query.size);
    const hits = materialise(
      db,
      pageRows.map((row) => row.seq),
    );
    if (hits.length !== pageRows.length) {
      throw new EngineFailure(`page of ${pageRows.length} rows found only ${hits.length} products`);
    }
    const lastRow = pageRows.at(-1);
    const outcome: EnginePage<Hit> = {
      hits,
      last:
        lastRow === undefined
          ? null
          : toCursorPosition({ bucket: lastRow.bucket, key: lastRow.k, seq: lastRow.seq }),
      hasMore: rows.length > query.from + query.size,
      ...totals,
    };
    if (query.aggregations) outcome.aggregations = aggregate(ctx, identifierHits);
    return outcome;
  });
}
