import type {
  BrandSearchJob,
  BrandSearchOutcome,
  EnginePage,
  NormalisedProductQuery,
  ProductSearchJob,
  ReplicaTarget,
  SearchEngine,
} from '@catalog/search';
import { displayOnWebFor, externalProductJson, identifierKey, type ProductRecord } from '@catalog/store';
// Facet counts as the contract suites expect them (exact values, largest first, then by value).
import { facetCounts } from '../../../catalog-search/test/contract/search-expectations.ts';
import type { NaiveIndex } from './naive-index.ts';
import { compareLocated, type Located, sortKey } from './product-order.ts';
import { allTermsIn, tokens } from './text-match.ts';

const IDENTIFIER_BUCKET = 0;
const NAME_BUCKET = 1;
const OTHER_TEXT_BUCKET = 2;

function passesFilters(query: NormalisedProductQuery, p: ProductRecord): boolean {
  if (!query.includeArchived && p.archived) return false;
  if (query.brandName !== null && p.brandName !== query.brandName) return false;
  if (query.updatedAfterMs !== null && Date.parse(p.updatedAt) <= query.updatedAfterMs) return false;
  return query.displayOnWeb === null || displayOnWebFor(p, query.channel) === query.displayOnWeb;
}

function isIdentifierHit(query: NormalisedProductQuery, p: ProductRecord): boolean {
  return (
    query.identifier !== null &&
    (identifierKey(p.productCode) === query.identifier || identifierKey(p.erpCode) === query.identifier)
  );
}

/** The bucket a product falls in, or null when it does not match. */
function bucketOf(query: NormalisedProductQuery, p: ProductRecord): number | null {
  if (!passesFilters(query, p)) return null;
  if (query.identifier === null) return NAME_BUCKET;
  if (isIdentifierHit(query, p)) return IDENTIFIER_BUCKET;
  if (query.terms.length === 0) return null;
  const name = tokens(p.name);
  const text = [name, tokens(p.description), tokens(p.productCode), tokens(p.erpCode)];
  if (!allTermsIn(query.terms, text)) return null;
  // Sorted, every text match is one bucket; by relevance, name matches come first.
  if (query.orderBy !== 'relevance') return NAME_BUCKET;
  return allTermsIn(query.terms, [name]) ? NAME_BUCKET : OTHER_TEXT_BUCKET;
}

/**
 * A deliberately naive engine: every query scans every product of its in-memory index. It
 * implements the engine port and the follower's target, to show that an engine plugs in below the
 * neutral layer without a change anywhere else. Used by tests only.
 */
export class NaiveEngine implements SearchEngine, ReplicaTarget {
  readonly source = 'naive-memory';
  readonly #index: NaiveIndex;

  constructor(index: NaiveIndex) {
    this.#index = index;
  }

  async appliedSequence(): Promise<number> {
    return this.#index.appliedSequence;
  }

  async apply(records: Parameters<ReplicaTarget['apply']>[0]): Promise<void> {
    this.#index.apply(records);
  }

  async searchProducts(job: ProductSearchJob): Promise<EnginePage<ProductRecord>> {
    return this.#page(job, (p) => this.#index.read(p));
  }

  async searchProductDocuments(
    job: ProductSearchJob,
    view: Parameters<SearchEngine['searchProductDocuments']>[1],
  ): Promise<EnginePage<string>> {
    return this.#page(job, (p) => externalProductJson(this.#index.read(p), view));
  }

  #page<Hit>(job: ProductSearchJob, materialise: (p: ProductRecord) => Hit): EnginePage<Hit> {
    const { query } = job;
    const matches: Array<Located & { product: ProductRecord }> = [];
    for (const product of this.#index.products.values()) {
      const bucket = bucketOf(query, product);
      if (bucket !== null) matches.push({ bucket, key: sortKey(query, product), seq: product.seq, product });
    }
    matches.sort((a, b) => compareLocated(query, a, b));
    const after =
      job.after === null
        ? null
        : { bucket: job.after.key[0] as number, key: job.after.key[1] ?? null, seq: job.after.seq };
    const rest = after === null ? matches : matches.filter((row) => compareLocated(query, row, after) > 0);
    const pageRows = rest.slice(query.from, query.from + query.size);
    const lastRow = pageRows.at(-1);
    const page: EnginePage<Hit> = {
      hits: pageRows.map((row) => materialise(row.product)),
      last: lastRow === undefined ? null : { key: [lastRow.bucket, lastRow.key], seq: lastRow.seq },
      hasMore: rest.length > query.from + query.size,
      ...(job.knownTotal ?? {
        total: Math.min(matches.length, job.totalCap),
        totalIsLowerBound: matches.length > job.totalCap,
      }),
    };
    if (query.aggregations) page.aggregations = facetCounts(matches.map((row) => row.product));
    return page;
  }

  async searchBrands(job: BrandSearchJob): Promise<BrandSearchOutcome> {
    if (job.matchNothing) return { brands: [], total: 0 };
    const matches = [...this.#index.brands.values()]
      .filter((brand) => job.includeArchived || !brand.archived)
      .filter((brand) => allTermsIn(job.terms, [tokens(brand.name), tokens(brand.slug)]))
      .sort((a, b) => compareBrandNames(a.name, b.name));
    return { brands: matches.slice(job.from, job.from + job.size), total: matches.length };
  }

  async compactIndex(): Promise<void> {}

  async close(): Promise<void> {}
}

/** Brands sort by name as SQLite's NOCASE does (ASCII letters folded, then byte order). */
function compareBrandNames(a: string, b: string): number {
  const fold = (text: string) => Buffer.from(text.replace(/[A-Z]/g, (letter) => letter.toLowerCase()));
  return Buffer.compare(fold(a), fold(b));
}
