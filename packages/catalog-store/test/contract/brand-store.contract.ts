import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';

export function brandStoreContract(factory: RecordStoreFactory): void {
  describe('BrandStore', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    it('derives a unique kebab-case slug from the name', async () => {
      const a = await handle.store.brands.create({ name: 'Müller & Söhne' });
      const b = await handle.store.brands.create({ name: 'Muller Sohne' });
      expect(a.slug).toBe('muller-sohne');
      expect(b.slug).toBe('muller-sohne-2');
    });

    it('refuses duplicate names and slugs', async () => {
      await handle.store.brands.create({ name: 'Acme', slug: 'acme' });
      await expect(handle.store.brands.create({ name: 'Acme' })).rejects.toBeInstanceOf(ValidationError);
      await expect(handle.store.brands.create({ name: 'Other', slug: 'acme' })).rejects.toBeInstanceOf(
        ValidationError,
      );
    });

    it('lists only active brands unless archived ones are asked for', async () => {
      const kept = await handle.store.brands.create({ name: 'Kept' });
      const gone = await handle.store.brands.create({ name: 'Gone' });
      await handle.store.brands.archive(gone.id);
      expect((await handle.store.brands.list()).map((b) => b.id)).toEqual([kept.id]);
      expect(await handle.store.brands.list({ includeArchived: true })).toHaveLength(2);
      expect((await handle.store.brands.get(gone.id))?.archived).toBe(true);
    });

    it('copies a rename onto its products and bumps their updatedAt', async () => {
      const product = await handle.store.products.create(aProduct({ brandName: 'Old Name' }));
      const brand = await handle.store.brands.getBySlug('old-name');
      await handle.store.brands.update(brand?.id as string, { name: 'New Name', slug: 'new-name' });
      const after = await handle.store.products.get(product.id);
      expect(after).toMatchObject({ brandName: 'New Name', brandSlug: 'new-name' });
      expect(Date.parse(after?.updatedAt as string)).toBeGreaterThan(Date.parse(product.updatedAt));
    });

    it('counts products per brand in the overview', async () => {
      await handle.store.products.upsertMany([
        aProduct({ brandName: 'A' }),
        aProduct({ brandName: 'A' }),
        aProduct({ brandName: 'B' }),
      ]);
      const overview = await handle.store.brands.overview();
      expect(overview.map((entry) => [entry.brand.name, entry.productCount])).toEqual([
        ['A', 2],
        ['B', 1],
      ]);
    });

    it('answers NotFoundError for an unknown brand', async () => {
      await expect(handle.store.brands.update('nope', { name: 'x' })).rejects.toBeInstanceOf(NotFoundError);
      expect(await handle.store.brands.get('nope')).toBeUndefined();
    });
  });
}
