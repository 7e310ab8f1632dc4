import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type CatalogStore,
  InvalidSortError,
  InvalidSortFieldError,
  InvalidSyncTokenError,
  type ProductRecord,
  type ProductSearchQuery,
  SearchTermTooLongError,
  SORT_FIELDS,
  ValidationError,
} from '@catalog/store';
import type { StoreFactory, StoreHandle } from '@catalog/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedOrder, facetCounts, visibleTo } from './search-expectations.ts';
import { buildSearchFixture, NAMED } from './search-fixture.ts';

const idOf = (name: keyof typeof NAMED) => NAMED[name]?.id as string;

/** Follows syncToken to the end; returns every id in the order served. */
export async function walk(store: CatalogStore, query: ProductSearchQuery, size: number): Promise<string[]> {
  const ids: string[] = [];
  let page = await store.productSearch.search({ ...query, size });
  for (let guard = 0; guard < 10_000; guard += 1) {
    ids.push(...page.products.map((p) => p.id));
    if (page.syncToken === null) return ids;
    // A turn of the event loop per page: the embedded engines answer synchronously, and a walk of
    // 10,000 products would otherwise hold vitest's worker past its 60 s call time-out when loaded.
    await nextTurn();
    page = await store.productSearch.search({ ...query, size, syncToken: page.syncToken });
  }
  throw new Error('walk did not end');
}

export function productSearchContract(factory: StoreFactory): void {
  describe('ProductSearch', () => {
    let handle: StoreHandle;
    let store: CatalogStore;
    let all: ProductRecord[];
    let live: ProductRecord[];
    const ids = async (query: ProductSearchQuery) =>
      (await store.productSearch.search({ size: 100, ...query })).products.map((p) => p.id);

    beforeAll(async () => {
      handle = await factory();
      store = handle.store;
      all = await buildSearchFixture(store);
      live = all.filter((p) => !p.archived);
    });
    afterAll(async () => handle.dispose());

    describe('q', () => {
      it('requires every term, each as a prefix, in name, description, productCode or erpCode', async () => {
        expect(await ids({ q: 'cord dri' })).toEqual([idOf('drill')]);
        expect(new Set(await ids({ q: 'torch' }))).toEqual(new Set([idOf('torch'), idOf('adaptor')]));
        expect(await ids({ q: 'erp.50' })).toEqual([idOf('torch')]);
        expect(await ids({ q: 'dr.18' })).toEqual([idOf('drill')]);
        expect(await ids({ q: 'butane batteries' })).toEqual([]);
      });

      it('ignores case and accents', async () => {
        expect(await ids({ q: 'CREME brulee' })).toEqual([idOf('torch')]);
        expect(await ids({ q: 'crème BRÛLÉE' })).toEqual([idOf('torch')]);
      });

      it('finds a product by its own spelling, a compatibility character (²) included, as the index holds it', async () => {
        expect(await ids({ q: '2.5mm²' })).toEqual([idOf('squared')]);
        expect(await ids({ q: 'EARTH 2.5MM²' })).toEqual([idOf('squared')]);
      });

      it('matches everything when q is blank', async () => {
        const page = await store.productSearch.search({ q: '   ', size: 5 });
        expect(page.total).toBe(live.length);
      });

      it('puts an exact productCode or erpCode match first', async () => {
        const hits = await ids({ q: 'AB-100' });
        expect(hits[0]).toBe(idOf('torch'));
        expect(hits).toContain(idOf('adaptor'));
        expect((await ids({ q: 'ab 100' }))[0]).toBe(idOf('adaptor'));
      });

      it('looks up codes with dashes, dots and spaces exactly, whatever the case and spacing', async () => {
        for (const [q, name] of [
          ['ab-100', 'torch'],
          ['erp.500', 'torch'],
          ['DR.18.v', 'drill'],
          ['db 200', 'bits'],
          ['  DB   200 ', 'bits'],
          ['e 42', 'bits'],
        ] as const) {
          expect((await ids({ q }))[0], q).toBe(idOf(name));
        }
      });

      it('finds an exact code through the identifier lookup even when full text cannot match it', async () => {
        expect(await ids({ q: '--' })).toEqual([idOf('dashes')]);
      });

      it('applies the filters to identifier hits too', async () => {
        expect(await ids({ q: 'ARCH-1' })).toEqual([]);
        expect(await ids({ q: 'ARCH-1', includeArchived: true })).toEqual([idOf('archived')]);
        expect(await ids({ q: 'AB-100', brandName: 'Bolt Co' })).toEqual([]);
      });

      it('orders by relevance: identifier hits, then all terms in the name, then the rest', async () => {
        const hits = await ids({ q: 'drill' });
        expect(hits.slice(0, 2).sort()).toEqual([idOf('drill'), idOf('bits')].sort());
        const described = await ids({ q: 'heavy' });
        expect(described.length).toBeGreaterThan(0);
      });
    });

    describe('filters', () => {
      it('brandName is exact, case included', async () => {
        const bolt = await ids({ brandName: 'Bolt Co' });
        expect(bolt).toEqual(live.filter((p) => p.brandName === 'Bolt Co').map((p) => p.id));
        expect(await ids({ brandName: 'bolt co' })).toEqual(
          live.filter((p) => p.brandName === 'bolt co').map((p) => p.id),
        );
        expect(await ids({ brandName: 'Bolt' })).toEqual([]);
      });

      it('brandName with q serves the same matches whether the brand or the text is the smaller side', async () => {
        // 'light' is in more products than any brand, 'anchor' and 'cordless' in fewer, and 'g' is
        // a prefix whose size the index cannot bound.
        const matchesTerm = (term: string, fields: string[]) =>
          new RegExp(`(^|[^a-z0-9])${term}`, 'i').test(fields.join(' '));
        for (const q of ['light', 'anchor', 'cordless', 'g']) {
          for (const brandName of ['Bolt Co', 'bolt co', 'Acme Tools']) {
            const matches = live
              .filter(
                (p) =>
                  p.brandName === brandName &&
                  matchesTerm(q, [p.name, p.description, p.productCode, p.erpCode]),
              )
              .sort((a, b) => a.seq - b.seq);
            const inName = matches.filter((p) => matchesTerm(q, [p.name]));
            const relevance = [...inName, ...matches.filter((p) => !inName.includes(p))];
            const page = await store.productSearch.search({ q, brandName, size: 100 });
            expect(
              page.products.map((p) => p.id),
              `${q} ${brandName}`,
            ).toEqual(relevance.map((p) => p.id));
            expect(page.total, `${q} ${brandName}`).toBe(matches.length);
            expect(await ids({ q, brandName, sort: 'code', order: 'asc' })).toEqual(
              expectedOrder(matches, 'code', 'asc'),
            );
          }
        }
      });

      it('updatedAfter keeps products updated strictly after the instant', async () => {
        const sorted = [...live].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
        const pivot = sorted[Math.floor(sorted.length / 2)]?.updatedAt as string;
        const expected = live.filter((p) => Date.parse(p.updatedAt) > Date.parse(pivot)).map((p) => p.id);
        expect(new Set(await ids({ updatedAfter: pivot }))).toEqual(new Set(expected));
        expect(await ids({ updatedAfter: '1970-01-01T00:00:00Z' })).toHaveLength(live.length);
      });

      it('excludes archived products unless includeArchived', async () => {
        expect(await ids({})).toHaveLength(live.length);
        expect(await ids({ includeArchived: true })).toHaveLength(all.length);
      });

      it("evaluates displayOnWeb for the caller's channel, falling back to the stored flag", async () => {
        for (const channel of [null, 'main-site', 'trade']) {
          for (const visible of [true, false]) {
            const served = await ids({ displayOnWeb: visible, channel, includeArchived: true });
            expect(new Set(served), `${channel} ${visible}`).toEqual(
              new Set(visibleTo(all, channel, visible)),
            );
          }
        }
        expect(await ids({ displayOnWeb: false, channel: 'trade', q: 'AB-100' })).toContain(idOf('torch'));
        expect(await ids({ displayOnWeb: true, channel: 'trade', q: 'cordless' })).toEqual([idOf('drill')]);
      });
    });

    describe('sort', () => {
      for (const field of SORT_FIELDS) {
        for (const order of ['asc', 'desc'] as const) {
          it(`sort=${field} order=${order} orders by the column, ties by seq`, async () => {
            expect(await ids({ sort: field, order, includeArchived: true })).toEqual(
              expectedOrder(all, field, order),
            );
          });
        }
      }

      it('defaults to updatedAt ascending without sort and q', async () => {
        expect(await ids({})).toEqual(expectedOrder(live, 'updatedAt', 'asc'));
      });

      it('defaults to descending when sort is given without order', async () => {
        expect(await ids({ sort: 'price' })).toEqual(expectedOrder(live, 'price', 'desc'));
      });

      it('sorts text matches by the column, after the identifier hit', async () => {
        const hits = await ids({ q: 'AB-100', sort: 'price', order: 'asc' });
        expect(hits).toEqual([idOf('torch'), idOf('adaptor')]);
      });

      it('rejects an unknown sort field and an unknown order', async () => {
        await expect(store.productSearch.search({ sort: 'colour' as never })).rejects.toBeInstanceOf(
          InvalidSortFieldError,
        );
        await expect(
          store.productSearch.search({ sort: 'name', order: 'up' as never }),
        ).rejects.toBeInstanceOf(InvalidSortError);
      });
    });

    describe('paging', () => {
      it('offset pages concatenate to the full order', async () => {
        const expected = expectedOrder(live, 'name', 'asc');
        const served: string[] = [];
        for (let from = 0; from < expected.length; from += 7) {
          const page = await store.productSearch.search({ sort: 'name', order: 'asc', from, size: 7 });
          expect(page.from).toBe(from);
          expect(page.total).toBe(live.length);
          served.push(...page.products.map((p) => p.id));
        }
        expect(served).toEqual(expected);
      });

      it('reports hasMore on full pages and no syncToken on the last page', async () => {
        const first = await store.productSearch.search({ size: live.length - 1 });
        expect(first).toMatchObject({ hasMore: true, syncToken: expect.any(String) });
        const exact = await store.productSearch.search({ size: live.length });
        expect(exact).toMatchObject({ hasMore: false, syncToken: null });
        const none = await store.productSearch.search({ q: 'nosuchword' });
        expect(none).toMatchObject({
          products: [],
          total: 0,
          totalIsLowerBound: false,
          hasMore: false,
          syncToken: null,
        });
      });

      it('rejects size outside 1-100, a negative from and from + size past 10,000', async () => {
        for (const query of [
          { size: 0 },
          { size: 101 },
          { from: -1 },
          { from: 9_990, size: 11 },
          { size: 1.5 },
        ]) {
          await expect(store.productSearch.search(query), JSON.stringify(query)).rejects.toBeInstanceOf(
            ValidationError,
          );
        }
        await expect(store.productSearch.search({ from: 9_990, size: 10 })).resolves.toMatchObject({
          products: [],
        });
      });

      it('rejects q longer than 256 characters and a bad updatedAfter', async () => {
        await expect(store.productSearch.search({ q: 'a'.repeat(257) })).rejects.toBeInstanceOf(
          SearchTermTooLongError,
        );
        await expect(store.productSearch.search({ q: 'a'.repeat(256) })).resolves.toBeDefined();
        await expect(store.productSearch.search({ updatedAfter: 'yesterday' })).rejects.toMatchObject({
          details: { field: 'updatedAfter' },
        });
      });
    });

    describe('syncToken', () => {
      const orders: Array<[string, ProductSearchQuery, () => string[]]> = [
        ['default order', {}, () => expectedOrder(live, 'updatedAt', 'asc')],
        ['name asc', { sort: 'name', order: 'asc' }, () => expectedOrder(live, 'name', 'asc')],
        ['price desc', { sort: 'price', order: 'desc' }, () => expectedOrder(live, 'price', 'desc')],
        [
          'brand asc',
          { sort: 'brand', order: 'asc', includeArchived: true },
          () => expectedOrder(all, 'brand', 'asc'),
        ],
        [
          'supplierCost asc',
          { sort: 'supplierCost', order: 'asc' },
          () => expectedOrder(live, 'supplierCost', 'asc'),
        ],
      ];
      for (const [label, query, expected] of orders) {
        it(`a keyset walk (${label}) visits each product exactly once, in order`, async () => {
          expect(await walk(store, query, 4)).toEqual(expected());
        });
      }

      it('a keyset walk over text matches serves the same set as one big page', async () => {
        for (const q of ['drill', 'AB-100', 'g', 'cable', 'light']) {
          for (const brandName of ['Acme Tools', 'Zeta Works']) {
            const filtered: ProductSearchQuery = { q, brandName, sort: 'name', order: 'asc' };
            expect(await walk(store, filtered, 2), `${q} ${brandName}`).toEqual(await ids(filtered));
            expect(await walk(store, { q, brandName }, 2), `${q} ${brandName}`).toEqual(
              await ids({ q, brandName }),
            );
          }
          for (const sort of [undefined, 'code'] as const) {
            const query: ProductSearchQuery = sort === undefined ? { q } : { q, sort };
            expect(await walk(store, query, 2), `${q} ${sort}`).toEqual(await ids(query));
          }
        }
      });

      it('continues with a smaller page size', async () => {
        const first = await store.productSearch.search({ sort: 'name', order: 'asc', size: 10 });
        const next = await store.productSearch.search({
          sort: 'name',
          order: 'asc',
          size: 5,
          syncToken: first.syncToken as string,
        });
        expect(next.products.map((p) => p.id)).toEqual(expectedOrder(live, 'name', 'asc').slice(10, 15));
      });

      it('reports the same relevance total whether or not the page holds every match', async () => {
        const matches = live.filter((p) =>
          /(^|[^a-z])g/i.test(`${p.name} ${p.description} ${p.productCode} ${p.erpCode}`),
        );
        expect(matches.length).toBeGreaterThan(2);
        for (const [from, size] of [
          [0, 1],
          [0, matches.length - 1],
          [0, matches.length],
          [0, 100],
          [1, matches.length - 1],
          [matches.length, 5],
          [matches.length + 3, 5],
        ] as const) {
          const page = await store.productSearch.search({ q: 'g', from, size });
          expect(page, `from ${from} size ${size}`).toMatchObject({
            total: matches.length,
            totalIsLowerBound: false,
            hasMore: from + size < matches.length,
          });
        }
        // With an identifier hit first: counted once, whether counted or collected.
        const whole = await store.productSearch.search({ q: 'AB-100', size: 100 });
        expect(whole.total).toBeGreaterThan(1);
        expect(whole.total).toBe(whole.products.length);
        const first = await store.productSearch.search({ q: 'AB-100', size: 1 });
        expect(first).toMatchObject({ total: whole.total, hasMore: true });
      });

      it('repeats the first page total on every page', async () => {
        const first = await store.productSearch.search({ size: 3 });
        const second = await store.productSearch.search({ size: 3, syncToken: first.syncToken as string });
        expect(second).toMatchObject({ total: first.total, totalIsLowerBound: first.totalIsLowerBound });
      });

      it('rejects a tampered, malformed or foreign cursor with INVALID_SYNC_TOKEN', async () => {
        const { syncToken } = await store.productSearch.search({ size: 3, sort: 'name' });
        const token = syncToken as string;
        const [version, body, signature] = token.split('.') as [string, string, string];
        const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
        const forged = Buffer.from(JSON.stringify({ ...payload, s: 1 })).toString('base64url');
        const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
        for (const bad of [
          `${version}.${forged}.${signature}`,
          `${version}.${body}.${flipped}`,
          `v0.${body}.${signature}`,
          'garbage',
          '',
        ]) {
          await expect(
            store.productSearch.search({ size: 3, sort: 'name', syncToken: bad }),
            bad,
          ).rejects.toMatchObject({
            status: 400,
            code: 'INVALID_SYNC_TOKEN',
          });
        }
        for (const other of [
          { sort: 'price' },
          { sort: 'name', order: 'asc' },
          { sort: 'name', q: 'g' },
        ] as const) {
          await expect(
            store.productSearch.search({ ...other, size: 3, syncToken: token }),
          ).rejects.toBeInstanceOf(InvalidSyncTokenError);
        }
      });
    });

    describe('aggregations', () => {
      it('counts brandName, category, department and stockType over the whole match set', async () => {
        const page = await store.productSearch.search({ q: 'g', includeAggregations: true, size: 1 });
        const matches = live.filter((p) =>
          /(^|[^a-z])g/i.test(`${p.name} ${p.description} ${p.productCode} ${p.erpCode}`),
        );
        expect(page.total).toBe(matches.length);
        expect(page.aggregations).toEqual(facetCounts(matches));
        expect(Object.values(page.aggregations?.brandName ?? {})).toEqual(
          Object.values(facetCounts(matches).brandName),
        );
      });

      it('counts the whole catalogue when nothing but archived narrows it', async () => {
        for (const [includeArchived, products] of [
          [false, live],
          [true, all],
        ] as const) {
          const page = await store.productSearch.search({
            includeAggregations: true,
            includeArchived,
            size: 1,
          });
          expect(page.aggregations, String(includeArchived)).toEqual(facetCounts(products));
        }
        const filtered = await store.productSearch.search({
          includeAggregations: true,
          brandName: 'Bolt Co',
        });
        expect(filtered.aggregations).toEqual(facetCounts(live.filter((p) => p.brandName === 'Bolt Co')));
      });

      it('leaves aggregations out unless asked', async () => {
        expect((await store.productSearch.search({})).aggregations).toBeUndefined();
      });
    });
  });
}
