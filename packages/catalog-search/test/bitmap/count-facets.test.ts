import { type ProductRecord, seedCatalogue, seededRandom } from '@catalog/store';
import { openDatabase, readProductsBySeq } from '@catalog/store/sqlite-reading';
import { expect, test } from 'vitest';
import { CatalogueIndex } from '../../src/engines/bitmap/catalogue-index.ts';
import { countFacets } from '../../src/engines/bitmap/count-facets.ts';
import { RoaringBitmap32 } from '../../src/engines/bitmap/roaring.ts';
import { sqliteStore } from '../support/sqlite-factory.ts';

const PRODUCTS = 1_500;
const FACETS = ['brandName', 'category', 'department', 'stockType'] as const;

/** The aggregations of spec 4.1 counted the plain way: each match's value, largest count first. */
function expected(records: readonly ProductRecord[], matches: RoaringBitmap32) {
  return Object.fromEntries(
    FACETS.map((facet) => {
      const counts = new Map<string, number>();
      for (const record of records) {
        if (!matches.has(record.seq) || record[facet] === '') continue;
        counts.set(record[facet], (counts.get(record[facet]) ?? 0) + 1);
      }
      const ordered = [...counts].sort(([a, an], [b, bn]) => bn - an || (a < b ? -1 : 1));
      return [facet, Object.fromEntries(ordered)];
    }),
  );
}

test('includeAggregations counts every facet value over the whole match set, product by product, by the complement or value by value alike, and after products change', async () => {
  const handle = await sqliteStore();
  try {
    await seedCatalogue(handle.store, { products: PRODUCTS, seed: 'count-facets' });
    const db = openDatabase(handle.databasePath, { readOnly: true });
    const records = readProductsBySeq(
      db,
      (db.prepare('SELECT seq FROM products ORDER BY seq').all() as { seq: number }[]).map((row) => row.seq),
    );
    db.close();
    const index = new CatalogueIndex();
    index.apply({ webChannels: [], brands: [], products: records });
    // Some products move to another brand and category, some are archived with another stock type:
    // the counts follow.
    const rnd = seededRandom(28);
    const current = new Map(records.map((record) => [record.seq, record]));
    for (const record of records.slice(0, 200)) {
      const other = records[Math.floor(rnd() * records.length)] as ProductRecord;
      const moved = { ...record, brandName: other.brandName, category: other.category };
      index.setProduct(moved);
      current.set(record.seq, moved);
    }
    for (const record of records.slice(200, 260)) {
      const archived = { ...record, archived: true, stockType: 'discontinued' };
      index.setProduct(archived);
      current.set(record.seq, archived);
    }
    const remaining = [...current.values()];
    const sets = {
      'the whole catalogue': index.all,
      'the live products': index.live,
      'all but a few': RoaringBitmap32.andNot(
        index.all,
        new RoaringBitmap32(remaining.filter(() => rnd() < 0.02).map((record) => record.seq)),
      ),
      'a random half': new RoaringBitmap32(remaining.filter(() => rnd() < 0.5).map((record) => record.seq)),
      'a handful': new RoaringBitmap32(remaining.slice(0, 7).map((record) => record.seq)),
      nothing: new RoaringBitmap32(),
    };
    for (const [name, matches] of Object.entries(sets)) {
      const want = expected(remaining, matches);
      // Thresholds that send each set down each of the three ways of counting.
      for (const countedByProduct of [0, 10, matches.size, index.all.size - matches.size, PRODUCTS * 2]) {
        const counted = countFacets(index, matches, countedByProduct);
        expect(
          Object.fromEntries(FACETS.map((facet) => [facet, counted[facet]])),
          `${name}, counted by product up to ${countedByProduct}`,
        ).toEqual(want);
        for (const facet of FACETS)
          expect(Object.keys(counted[facet])).toEqual(Object.keys(want[facet] ?? {}));
      }
    }
  } finally {
    await handle.dispose();
  }
}, 120_000);
