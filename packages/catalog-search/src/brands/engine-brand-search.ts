import {
  type BrandSearch,
  type BrandSearchPage,
  type BrandSearchQuery,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SEARCH_TERM_MAX_LENGTH,
  SearchTermTooLongError,
  ValidationError,
} from '@catalog/store';
import type { SearchEngine } from '../engine/search-engine.ts';
import { searchTerms } from '../query/search-terms.ts';

/** Spec 5.x brand search over any engine: the query checked and folded here, matched by the engine. */
export class EngineBrandSearch implements BrandSearch {
  readonly #engine: SearchEngine;

  constructor(engine: SearchEngine) {
    this.#engine = engine;
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
    const outcome = await this.#engine.searchBrands({
      terms,
      matchNothing: q.trim() !== '' && terms.length === 0,
      includeArchived: query.includeArchived === true,
      from,
      size,
    });
    return {
      brands: outcome.brands,
      total: outcome.total,
      from,
      size,
      queryTimeMs: Math.round(performance.now() - started),
      source: this.#engine.source,
    };
  }
}
