import { openDatabase } from '@catalog/store/sqlite-reading';
import { aProduct } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { expandPrefixTerms } from '../../src/engines/sqlite-fts5/term-expansions.ts';
import { matchAllTerms } from '../../src/query/search-terms.ts';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// A prefix term that stands for a few index terms is searched as an OR of them (no doclist merge),
// and their document counts let a small count skip its cap. The matches must be the prefix's.
describe('prefix terms expanded from the index term list', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  const names = [
    'Ceramic bowl',
    'Ceramics kiln',
    'Ceramicist apron',
    'Cera wax',
    'Bowl ceramic glaze',
    'Porcelain bowl',
  ];

  it('finds what the prefix finds, in the same order, live and with archived products', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    const ids: string[] = [];
    for (const name of names) ids.push((await store.products.create(aProduct({ name }))).id);
    await store.products.archive(ids[2] as string);
    // Every word (or word start) of the names, with and without a second term.
    for (const q of ['ceramic', 'ceram', 'ceramics', 'cera', 'bowl', 'ceramic bowl', 'glaz', 'ceramicx']) {
      for (const includeArchived of [false, true]) {
        const page = await store.productSearch.search({ q, size: 100, includeArchived });
        const expected = names
          .map((name, i) => ({ name: name.toLowerCase(), id: ids[i] as string, archived: i === 2 }))
          .filter((p) => includeArchived || !p.archived)
          .filter((p) => q.split(' ').every((t) => p.name.split(' ').some((word) => word.startsWith(t))));
        expect(page.total, `q=${q} includeArchived=${includeArchived}`).toBe(expected.length);
        expect(new Set(page.products.map((p) => p.id))).toEqual(new Set(expected.map((p) => p.id)));
        // size 1: the count runs separately from the page.
        const first = await store.productSearch.search({ q, size: 1, includeArchived });
        expect(first.total).toBe(expected.length);
      }
    }
  });

  it('expands only plain terms of four characters or more into a few index terms, with their documents', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    for (const name of names) await store.products.create(aProduct({ name }));
    for (let i = 0; i < 10; i += 1) await store.products.create(aProduct({ name: `Widget${i}x` }));
    const db = openDatabase(handle.databasePath, { readOnly: true });
    try {
      const { expansions, upperBound } = expandPrefixTerms(db, ['ceramic', 'bowl', 'cer', 'crème', 'widget']);
      expect(expansions.get('ceramic')).toEqual(['ceramic', 'ceramicist', 'ceramics']);
      expect(expansions.get('bowl')).toEqual(['bowl']);
      // Served by the prefix index, not plain ASCII, or standing for more than eight terms.
      expect(expansions.has('cer')).toBe(false);
      expect(expansions.has('crème')).toBe(false);
      expect(expansions.has('widget')).toBe(false);
      // ceramic*: 4 products, bowl*: 3.
      expect(upperBound).toBe(3);
      expect(matchAllTerms(['ceramic', 'bowl', 'widget'], expansions)).toBe(
        '("ceramic" OR "ceramicist" OR "ceramics") AND "bowl" AND "widget"*',
      );
      expect(expandPrefixTerms(db, ['zzzz']).upperBound).toBe(0);
      expect(expandPrefixTerms(db, ['cer']).upperBound).toBe(Number.POSITIVE_INFINITY);
    } finally {
      db.close();
    }
  });

  it('sees the index terms committed since its last lookup, by another connection or its own', async () => {
    handle = await sqliteStore();
    const { store } = handle;
    const bowl = await store.products.create(aProduct({ name: 'Ceramic bowl' }));
    const reader = openDatabase(handle.databasePath, { readOnly: true });
    const writer = openDatabase(handle.databasePath);
    try {
      expect(expandPrefixTerms(reader, ['ceram']).expansions.get('ceram')).toEqual(['ceramic']);
      await store.products.create(aProduct({ name: 'Ceramicware jug' }));
      const afterCommit = expandPrefixTerms(reader, ['ceram']);
      expect(afterCommit.expansions.get('ceram')).toEqual(['ceramic', 'ceramicware']);
      expect(afterCommit.upperBound).toBe(2);

      expect(expandPrefixTerms(writer, ['ceram']).expansions.get('ceram')).toEqual([
        'ceramic',
        'ceramicware',
      ]);
      writer.prepare("UPDATE products SET name = 'Ceramist vase' WHERE id = ?").run(bowl.id);
      expect(expandPrefixTerms(writer, ['ceram']).expansions.get('ceram')).toEqual([
        'ceramicware',
        'ceramist',
      ]);
    } finally {
      reader.close();
      writer.close();
    }
  });
});
