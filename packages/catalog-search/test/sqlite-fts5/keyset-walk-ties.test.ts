import type { ProductSearchQuery } from '@catalog/store';
import { aProduct } from '@catalog/store/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type SqliteStoreHandle, sqliteStore } from '../support/sqlite-factory.ts';

// Spec 4.4: a sync walk returns every product exactly once, in its order, ties by seq. A sort-index
// walk continues from its cursor in two seeks (text-buckets.ts, walkFromCursor); these walks cross
// long runs of one key: one updatedAt for a whole catalogue loaded in one transaction, few categories.

describe('keyset walks through products sharing one sort key', () => {
  let handle: SqliteStoreHandle | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
  });

  async function walk(query: ProductSearchQuery): Promise<string[]> {
    const ids: string[] = [];
    let syncToken: string | undefined;
    do {
      const page = await (handle as SqliteStoreHandle).store.productSearch.search({
        ...query,
        ...(syncToken === undefined ? {} : { syncToken }),
      });
      ids.push(...page.products.map((p) => p.id));
      syncToken = page.syncToken ?? undefined;
    } while (syncToken !== undefined);
    return ids;
  }

  it('returns each product once, in (key, seq) order, both directions, for one updatedAt and for three categories', async () => {
    handle = await sqliteStore();
    const categories = ['Valves', 'pumps', 'Fittings'];
    const inputs = Array.from({ length: 230 }, (_, i) =>
      aProduct({ category: categories[i % 3] as string, archived: i % 17 === 0 }),
    );
    await handle.store.products.bulkLoadAll([inputs.slice(0, 100), inputs.slice(100)]);
    const all = await handle.store.products.getMany(inputs.map((p) => p.id as string));
    expect(new Set(all.map((p) => p.updatedAt)).size).toBe(1);
    const live = all.filter((p) => !p.archived);
    const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
    const byCategory = (a: { category: string; seq: number }, b: { category: string; seq: number }) =>
      a.category.toLowerCase().localeCompare(b.category.toLowerCase()) || a.seq - b.seq;

    const sync = { updatedAfter: '1970-01-01T00:00:00Z', size: 7 } as const;
    expect(await walk({ ...sync, sort: 'updatedAt', order: 'asc' })).toEqual(
      [...live].sort(bySeq).map((p) => p.id),
    );
    expect(await walk({ ...sync, sort: 'updatedAt', order: 'desc' })).toEqual(
      [...live]
        .sort(bySeq)
        .reverse()
        .map((p) => p.id),
    );
    expect(await walk({ size: 9, sort: 'category', order: 'asc' })).toEqual(
      [...live].sort(byCategory).map((p) => p.id),
    );
    expect(await walk({ size: 9, sort: 'category', order: 'desc', includeArchived: true })).toEqual(
      [...all]
        .sort(byCategory)
        .reverse()
        .map((p) => p.id),
    );
  });
});
