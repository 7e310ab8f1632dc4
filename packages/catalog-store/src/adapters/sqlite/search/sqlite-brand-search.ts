import { ValidationError } from '../../../errors/request-errors.ts';
import { SearchTermTooLongError } from '../../../errors/search-errors.ts';
import {
  type BrandSearchPage,
  type BrandSearchQuery,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SEARCH_TERM_MAX_LENGTH,
} from '../../../model/search.ts';
import type { BrandSearch } from '../../../ports/brand-search.ts';
import { searchTerms } from '../../../search/search-terms.ts';
import { SQLITE_SEARCH_SOURCE } from './sqlite-product-search.ts';
import type { SearchWorkerPool } from './worker-pool.ts';

export class SqliteBrandSearch implements BrandSearch {
  readonly #pool: SearchWorkerPool;

  constructor(pool: SearchWorkerPool) {
    this.#pool = pool;
  }

  async search(query: BrandSearchQuery): Promise<BrandSearchPage> {
    const started = performance.now();
    const q = query.q ?? '';
    if (q.length > SEARCH_TERM_MAX_LENGTH) throw new SearchTermTooLongError(SEARCH_TERM_MAX_LENGTH);
    const size = query.size ?? SEARCH_SIZE_DEFAULT;
    const from = query.from ?? 0;
    if (!Number.isSafeInteger(size) || size < 1 || size > SEARCH_SIZE_MAX) {
      throw new ValidationError('size', `must be between 1 and ${SEARCH_SIZE_MAX}`);
    }
    if (!Number.isSafeInteger(from) || from < 0)
      throw new ValidationError('from', 'must be a non-negative integer');
    const terms = searchTerms(q);
    const outcome = await this.#pool.run({
      kind: 'brands',
      job: {
        terms,
        matchNothing: q.trim() !== '' && terms.length === 0,
        includeArchived: query.includeArchived === true,
        from,
        size,
      },
    });
    return {
      brands: outcome.brands,
      total: outcome.total,
      from,
      size,
      queryTimeMs: Math.round(performance.now() - started),
      source: SQLITE_SEARCH_SOURCE,
    };
  }
}
