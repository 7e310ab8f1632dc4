import type { ProductSearchQuery } from '@catalog/store';
import { openDatabase } from '@catalog/store/sqlite-reading';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPrefixTerms } from '../../src/engines/sqlite-fts5/term-expansions.ts';
import { chooseTextMatchPlan } from '../../src/engines/sqlite-fts5/text-match-plan.ts';
import { normaliseProductQuery } from '../../src/query/normalise-product-query.ts';
import { buildSearchFixture } from '../contract/search-fixture.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// The contract's "brandName with q" cases must reach every plan, or they prove nothing about the
// choice between them.
describe('text match plan for brandName with q', () => {
  let handle: SqliteStoreHandle;
  beforeAll(async () => {
    handle = await sqliteStore();
    await buildSearchFixture(handle.store);
  });
  afterAll(async () => handle.dispose());

  const planOf = (query: ProductSearchQuery) => {
    const db = openDatabase(handle.databasePath, { readOnly: true });
    try {
      const normalised = normaliseProductQuery(query);
      return chooseTextMatchPlan(db, normalised, expandPrefixTerms(db, normalised.terms).upperBound);
    } finally {
      db.close();
    }
  };

  it('lists the brand when it is the smaller side, reads rows when the text is', () => {
    expect(planOf({ q: 'light', brandName: 'Bolt Co' })).toBe('filter-list');
    expect(planOf({ q: 'g', brandName: 'Bolt Co' })).toBe('filter-list');
    expect(planOf({ q: 'anchor', brandName: 'Bolt Co' })).toBe('rows');
    expect(planOf({ q: 'cordless', brandName: 'Bolt Co' })).toBe('rows');
  });

  it('answers from the index alone without filters, and reads rows for other filters', () => {
    expect(planOf({ q: 'light' })).toBe('index');
    expect(planOf({ q: 'light', includeArchived: true })).toBe('index');
    expect(planOf({ q: 'light', updatedAfter: '2020-01-01T00:00:00Z' })).toBe('rows');
  });
});
