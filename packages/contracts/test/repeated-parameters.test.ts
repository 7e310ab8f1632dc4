import { describe, expect, it } from 'vitest';
import { validateRequest } from '../src/index.ts';

describe('a parameter sent more than once', () => {
  it('is one VALIDATION_ERROR issue naming it, whatever the parameter’s own x-error-code (q: SEARCH_TERM_TOO_LONG)', () => {
    const result = validateRequest('searchProducts', { query: { q: ['a', 'b'] } });
    expect(result.ok ? [] : result.issues).toEqual([
      { field: 'q', reason: 'must be given once', code: 'VALIDATION_ERROR' },
    ]);
  });

  it('is refused for numeric and boolean parameters too, before coercion', () => {
    const result = validateRequest('searchProducts', {
      query: { size: ['5', '5'], includeArchived: ['true', 'true'] },
    });
    expect(result.ok ? [] : result.issues.map(({ field, reason }) => [field, reason])).toEqual([
      ['size', 'must be given once'],
      ['includeArchived', 'must be given once'],
    ]);
  });
});
