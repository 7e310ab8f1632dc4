import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ProductInput, ProductSearchQuery } from '@catalog/store';
import type { StoreFactory, StoreHandle } from '@catalog/store/testing';
import { aProduct } from '@catalog/store/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walk } from './product-search.contract.ts';

const PRODUCT_UPDATER = fileURLToPath(new URL('../fixtures/product-updater.ts', import.meta.url));

/** Starts an updater process and resolves, with its exit, once it has made its first write. */
async function startUpdater(
  handle: StoreHandle,
  writer: number,
  ids: readonly string[],
): Promise<{ exited: Promise<unknown> }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      PRODUCT_UPDATER,
      JSON.stringify(handle.location),
      String(writer),
      JSON.stringify(ids),
      '40',
      '15',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`updater ${writer} exited with ${code}`);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('started')) resolve();
    });
    exited.then(() => reject(new Error(`updater ${writer} ended before its first write`)), reject);
  });
  return { exited };
}

async function insertMany(
  handle: StoreHandle,
  count: number,
  make: (i: number) => ProductInput,
): Promise<void> {
  for (let start = 0; start < count; start += 2000) {
    const batch = Array.from({ length: Math.min(2000, count - start) }, (_, i) => make(start + i));
    await handle.store.products.upsertMany(batch);
    // The embedded engines write synchronously: without a turn of the event loop between batches,
    // 10,000 products keep vitest's worker from answering its main process for a minute on a loaded
    // machine, and vitest fails the run (its worker calls time out after 60 s).
    await nextTurn();
  }
}

export function productSearchSyncContract(factory: StoreFactory): void {
  describe('ProductSearch on a changing catalogue', () => {
    let handle: StoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    it('a sync walk (updatedAfter, syncToken) loses no product updated during the walk', async () => {
      const inputs = Array.from({ length: 60 }, () => aProduct());
      for (let i = 0; i < inputs.length; i += 10)
        await handle.store.products.upsertMany(inputs.slice(i, i + 10));
      const query: ProductSearchQuery = { updatedAfter: '1970-01-01T00:00:00Z', size: 7 };
      const seen = new Map<string, string[]>();
      const updated = new Map<string, string>();
      let page = await handle.store.productSearch.search(query);
      for (let round = 0; round < 100; round += 1) {
        for (const p of page.products) seen.set(p.id, [...(seen.get(p.id) ?? []), p.name]);
        if (page.syncToken === null) break;
        // Update one product already served and one not yet served, as a live catalogue would.
        const served = inputs.filter((p) => seen.has(p.id as string));
        const pending = inputs.filter((p) => !seen.has(p.id as string));
        for (const victim of [served[round % served.length], pending[pending.length - 1 - (round % 3)]]) {
          if (victim === undefined) continue;
          const name = `updated in round ${round}`;
          await handle.store.products.replace(victim.id as string, { ...victim, name });
          updated.set(victim.id as string, name);
        }
        page = await handle.store.productSearch.search({ ...query, syncToken: page.syncToken });
      }
      expect(new Set(seen.keys())).toEqual(new Set(inputs.map((p) => p.id)));
      // The last update of every product was itself served: updated rows move ahead of the cursor.
      const missedUpdates = [...updated].filter(([id, name]) => !seen.get(id)?.includes(name));
      expect(updated.size).toBeGreaterThan(10);
      expect(missedUpdates).toEqual([]);
    });

    it('a sync walk loses no product updated during the walk by two other writer processes', async () => {
      const inputs = Array.from({ length: 150 }, () => aProduct());
      await handle.store.products.upsertMany(inputs);
      const ids = inputs.map((input) => input.id as string);
      const updaters = await Promise.all([1, 2].map((writer) => startUpdater(handle, writer, ids)));
      const query: ProductSearchQuery = { updatedAfter: '1970-01-01T00:00:00Z', size: 5 };
      const seen = new Map<string, Set<string>>();
      const walkStarted = Date.now();
      let lastPageAt = Date.now();
      let page = await handle.store.productSearch.search(query);
      for (let guard = 0; guard < 1000; guard += 1) {
        for (const p of page.products) seen.set(p.id, (seen.get(p.id) ?? new Set()).add(p.name));
        if (page.syncToken === null) break;
        // The walk's 30 pages span some 3 s, past the updaters' 40 writes each (15 ms apart): a walk
        // over by the time they had settled a second (20 ms a page on a fast machine) had none to check.
        await sleep(100);
        lastPageAt = Date.now();
        page = await handle.store.productSearch.search({ ...query, syncToken: page.syncToken });
      }
      await Promise.all(updaters.map((updater) => updater.exited));
      expect(new Set(seen.keys())).toEqual(new Set(ids));
      // A write is stamped when its transaction starts: one stamped a second before the last page
      // was asked for had committed by then, however loaded the machine.
      const settled = (await handle.store.products.getMany(ids)).filter(
        (record) => Date.parse(record.updatedAt) < lastPageAt - 1000,
      );
      const updatedDuringWalk = settled.filter((record) => Date.parse(record.updatedAt) > walkStarted);
      expect(updatedDuringWalk.length).toBeGreaterThan(0);
      expect(
        settled.filter((record) => !seen.get(record.id)?.has(record.name)).map((record) => record.id),
      ).toEqual([]);
    });

    it('whole-catalogue aggregations follow creates, archives, edits and brand renames', async () => {
      const a = await handle.store.products.create(
        aProduct({ brandName: 'Alpha', category: 'Pumps', stockType: 'Stocked' }),
      );
      await handle.store.products.create(
        aProduct({ brandName: 'Alpha', category: 'Pumps', stockType: 'Stocked' }),
      );
      const c = await handle.store.products.create(aProduct({ brandName: 'Beta', category: 'Pipes' }));
      await handle.store.products.archive(c.id);
      await handle.store.products.replace(a.id, {
        ...aProduct({ id: a.id }),
        brandName: 'Alpha',
        category: 'Valves',
      });
      const alpha = await handle.store.brands.getBySlug('alpha');
      await handle.store.brands.update(alpha?.id as string, { name: 'Alpha Renamed' });
      const live = await handle.store.productSearch.search({ includeAggregations: true });
      expect(live.aggregations).toEqual({
        brandName: { 'Alpha Renamed': 2 },
        category: { Pumps: 1, Valves: 1 },
        department: {},
        stockType: { Stocked: 1 },
      });
      const withArchived = await handle.store.productSearch.search({
        includeAggregations: true,
        includeArchived: true,
      });
      expect(withArchived.aggregations?.brandName).toEqual({ 'Alpha Renamed': 2, Beta: 1 });
      expect(live).toMatchObject({ total: 2, totalIsLowerBound: false });
      expect(withArchived).toMatchObject({ total: 3, totalIsLowerBound: false });
    });

    it('text-match aggregations follow creates, archives, edits and brand renames', async () => {
      const { products, brands, productSearch } = handle.store;
      const a = await products.create(
        aProduct({ name: 'Widget one', brandName: 'Alpha', category: 'Pumps', stockType: 'Stocked' }),
      );
      const b = await products.create(
        aProduct({ name: 'Widget two', brandName: 'Alpha', category: 'Pumps', stockType: 'Stocked' }),
      );
      const c = await products.create(
        aProduct({ name: 'Widget three', brandName: 'Beta', category: 'Pipes' }),
      );
      await products.create(aProduct({ name: 'Gadget', brandName: 'Beta', category: 'Pipes' }));
      const widgets = async (query: ProductSearchQuery = {}) =>
        (await productSearch.search({ q: 'widget', includeAggregations: true, ...query })).aggregations;
      expect(await widgets()).toEqual({
        brandName: { Alpha: 2, Beta: 1 },
        category: { Pumps: 2, Pipes: 1 },
        department: {},
        stockType: { Stocked: 2 },
      });
      await products.archive(c.id);
      await products.replace(a.id, {
        ...aProduct({ id: a.id }),
        name: 'Widget one',
        brandName: 'Alpha',
        category: 'Valves',
        department: 'Water',
      });
      await products.replace(b.id, { ...aProduct({ id: b.id }), name: 'Gizmo', brandName: 'Alpha' });
      await products.create(aProduct({ name: 'Widget four', brandName: 'Alpha', stockType: 'Stocked' }));
      const alpha = await brands.getBySlug('alpha');
      await brands.update(alpha?.id as string, { name: 'Alpha Renamed' });
      expect(await widgets()).toEqual({
        brandName: { 'Alpha Renamed': 2 },
        category: { Valves: 1 },
        department: { Water: 1 },
        stockType: { Stocked: 1 },
      });
      expect(await widgets({ includeArchived: true })).toEqual({
        brandName: { 'Alpha Renamed': 2, Beta: 1 },
        category: { Pipes: 1, Valves: 1 },
        department: { Water: 1 },
        stockType: { Stocked: 1 },
      });
      expect(await widgets({ brandName: 'Alpha Renamed' })).toEqual({
        brandName: { 'Alpha Renamed': 2 },
        category: { Valves: 1 },
        department: { Water: 1 },
        stockType: { Stocked: 1 },
      });
    });

    it('the unfiltered total follows creates, archives and brand renames, and is capped past 10,000', async () => {
      const totals = async () => {
        const live = await handle.store.productSearch.search({ size: 1 });
        const all = await handle.store.productSearch.search({ size: 1, includeArchived: true });
        return [live.total, live.totalIsLowerBound, all.total, all.totalIsLowerBound];
      };
      expect(await totals()).toEqual([0, false, 0, false]);
      await insertMany(handle, 9_999, (i) => aProduct({ brandName: i % 2 === 0 ? 'Even' : '' }));
      const archived = await handle.store.products.create(aProduct({ brandName: 'Even' }));
      expect(await totals()).toEqual([10_000, false, 10_000, false]);
      await handle.store.products.archive(archived.id);
      expect(await totals()).toEqual([9_999, false, 10_000, false]);
      const even = await handle.store.brands.getBySlug('even');
      await handle.store.brands.update(even?.id as string, { name: 'Odd' });
      await handle.store.products.create(aProduct());
      expect(await totals()).toEqual([10_000, false, 10_000, true]);
      await handle.store.products.create(aProduct());
      expect(await totals()).toEqual([10_000, true, 10_000, true]);
      const served = await walk(handle.store, { includeArchived: true }, 100);
      expect(served).toHaveLength(10_002);
      expect(new Set(served).size).toBe(10_002);
      const live = await walk(handle.store, {}, 100);
      expect(live).toHaveLength(10_001);
      expect(live).not.toContain(archived.id);
    });

    it('a quiet keyset walk serves each product exactly once', async () => {
      await insertMany(handle, 250, () => aProduct());
      const served = await walk(handle.store, { updatedAfter: '1970-01-01T00:00:00Z' }, 9);
      expect(served).toHaveLength(250);
      expect(new Set(served).size).toBe(250);
    });

    it('reports an exact total of 10,000 and a capped lower bound at 10,001, and syncToken paging goes past it', async () => {
      await insertMany(handle, 10_001, (i) =>
        aProduct({ brandName: 'Bulk', archived: i === 0, name: `bulk item ${i}` }),
      );
      const exact = await handle.store.productSearch.search({ brandName: 'Bulk', size: 1 });
      expect(exact).toMatchObject({ total: 10_000, totalIsLowerBound: false });
      const capped = await handle.store.productSearch.search({
        brandName: 'Bulk',
        includeArchived: true,
        size: 1,
      });
      expect(capped).toMatchObject({ total: 10_000, totalIsLowerBound: true });
      const text = await handle.store.productSearch.search({ q: 'bulk', includeArchived: true, size: 1 });
      expect(text).toMatchObject({ total: 10_000, totalIsLowerBound: true });
      const textExact = await handle.store.productSearch.search({ q: 'bulk item', size: 1 });
      expect(textExact).toMatchObject({ total: 10_000, totalIsLowerBound: false });

      const served = await walk(
        handle.store,
        { brandName: 'Bulk', includeArchived: true, sort: 'name', order: 'asc' },
        100,
      );
      expect(served).toHaveLength(10_001);
      expect(new Set(served).size).toBe(10_001);
      const relevance = await walk(handle.store, { q: 'bulk', includeArchived: true }, 100);
      expect(new Set(relevance).size).toBe(10_001);
      const sortedText = await walk(
        handle.store,
        { q: 'bulk', sort: 'code', order: 'desc', includeArchived: true },
        100,
      );
      expect(new Set(sortedText).size).toBe(10_001);
    });
  });
}
