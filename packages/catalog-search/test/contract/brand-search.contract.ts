import type { StoreFactory, StoreHandle } from '@catalog/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export function brandSearchContract(factory: StoreFactory): void {
  describe('BrandSearch', () => {
    let handle: StoreHandle;
    beforeAll(async () => {
      handle = await factory();
      for (const name of ['Acme Tools', 'Bolt Co', 'Crème Works', 'Acme Garden', 'Delta']) {
        await handle.store.brands.create({ name });
      }
      const zeta = await handle.store.brands.create({ name: 'Zeta Retired', slug: 'zeta-old' });
      await handle.store.brands.archive(zeta.id);
    });
    afterAll(async () => handle.dispose());

    const names = async (q: string | undefined, extra: object = {}) =>
      (await handle.store.brandSearch.search({ ...(q === undefined ? {} : { q }), ...extra })).brands.map(
        (b) => b.name,
      );

    it('matches every term as a prefix of the name or the slug, without case or accents', async () => {
      expect(await names('acme')).toEqual(['Acme Garden', 'Acme Tools']);
      expect(await names('ACME to')).toEqual(['Acme Tools']);
      expect(await names('creme')).toEqual(['Crème Works']);
      expect(await names('nothing')).toEqual([]);
    });

    it('lists every active brand by name when q is omitted, with an exact total and offset paging', async () => {
      const page = await handle.store.brandSearch.search({ size: 2, from: 1 });
      expect(page).toMatchObject({ total: 5, from: 1, size: 2 });
      expect(page.brands.map((b) => b.name)).toEqual(['Acme Tools', 'Bolt Co']);
    });

    it('leaves archived brands out unless asked', async () => {
      expect(await names('old')).toEqual([]);
      expect(await names('old', { includeArchived: true })).toEqual(['Zeta Retired']);
    });

    it('rejects a size over 100', async () => {
      await expect(handle.store.brandSearch.search({ size: 101 })).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
      });
    });
  });
}
