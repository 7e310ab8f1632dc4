import { aProduct } from '@catalog/store/testing';
import { checkProperty } from '@catalog/vitest-config/property';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTerms } from '../../src/query/search-terms.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

/** Any UTF-16 code unit: control characters, lone surrogates and FTS5 syntax included. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    fc.constantFrom('\u0000', '\u001f', '\u0085', '\ud800', '\udfff', '"', '*', '(', ':', 'a', ' '),
  ),
  maxLength: 24,
});

describe('searchTerms', () => {
  it('reads every control character as a separator, as the index tokenizer does', () => {
    expect(searchTerms('brass\u0000elbow\u0007 15\u009fmm')).toEqual(['brass', 'elbow', '15', 'mm']);
    expect(searchTerms('\u0000\u0001')).toEqual([]);
  });
});

describe('product and brand search take any q without an engine error', () => {
  let handle: SqliteStoreHandle;
  beforeAll(async () => {
    handle = await sqliteStore({ searchWorkers: 1 });
    await handle.store.products.upsertMany([aProduct({ name: 'Brass elbow', brandName: 'Acme' })]);
  });
  afterAll(() => handle?.dispose());

  it('finds "Brass elbow" with q "brass\\u0000elbow"', async () => {
    const page = await handle.store.productSearch.search({ q: 'brass\u0000elbow' });
    expect(page.products.map((product) => product.name)).toEqual(['Brass elbow']);
  });

  it('answers any q of control characters, lone surrogates and FTS5 syntax with a page', async () => {
    await checkProperty(
      fc.asyncProperty(anyText, async (q) => {
        await handle.store.productSearch.search({ q });
        await handle.store.productSearch.search({ q, includeArchived: true });
        await handle.store.brandSearch.search({ q });
      }),
      { runs: 200, heavyRuns: 5_000, seed: 20261123 },
    );
  });
});
