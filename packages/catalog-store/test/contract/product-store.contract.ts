import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, type ProductInput, ValidationError } from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';

export function productStoreContract(factory: RecordStoreFactory): void {
  describe('ProductStore', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
      await handle.store.webChannels.create({ slug: 'main-site', name: 'Main site' });
    });
    afterEach(async () => handle.dispose());

    it('round-trips every field of the internal record and sets createdAt/updatedAt itself', async () => {
      const input: ProductInput = {
        productCode: 'AB-1.2 X',
        name: 'Crème brûlée torch',
        description: 'A torch',
        brandName: 'Acme Tools',
        range: 'Pro',
        category: 'Kitchen',
        department: 'Home',
        subDepartment: 'Cooking',
        stockType: 'Stocked',
        catalogue: '2025',
        displayOnWeb: true,
        webVisibility: { 'main-site': false },
        notes: 'Short public note',
        colour: 'Red',
        price: 12.5,
        retailPrice: 19.99,
        supplierCost: 7.25,
        costPrice: 7,
        marginPercent: 42,
        barcode: '5012345678900',
        length: 1,
        height: 2,
        width: 3,
        weight: 0.4,
        weightUnit: 'kg',
        imageUrl: 'https://cdn.example.com/a.jpg',
        images: [{ url: 'https://cdn.example.com/a.jpg', name: 'front' }],
        documents: [{ url: 'https://cdn.example.com/a.pdf', name: 'manual' }],
        erpCode: 'ERP-77',
        altSupplierCode: 'ALT-1',
        altSupplierCode2: 'ALT-2',
        webHierarchy: 'Home;Kitchen;Torches',
        type: 'Tools',
        subType: 'Torches',
        subSubType: 'Gas',
        retailRange: 'Chef',
        status: 'inactive',
        archived: false,
        internalNote: 'staff only',
        spares: [],
      };
      const created = await handle.store.products.create(input);
      const { relatedProducts, ...stored } = created;
      expect(stored).toMatchObject({ ...input, brandSlug: 'acme-tools' });
      expect(relatedProducts).toEqual([]);
      expect(created.createdAt).toBe(created.updatedAt);
      expect(Date.parse(created.createdAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(await handle.store.products.get(created.id)).toEqual(created);
    });

    it('fills omitted fields with their empty defaults', async () => {
      const created = await handle.store.products.create({ productCode: 'X1', name: 'Bare' });
      expect(created).toMatchObject({
        description: '',
        brandName: '',
        price: null,
        length: 0,
        imageUrl: null,
        images: [],
        status: 'active',
        archived: false,
        displayOnWeb: null,
        webVisibility: {},
      });
    });

    it('changes updatedAt on every write, even within the same millisecond', async () => {
      const created = await handle.store.products.create(aProduct());
      const stamps = [created.updatedAt];
      for (let i = 0; i < 5; i += 1) {
        stamps.push(
          (await handle.store.products.replace(created.id, { ...aProduct(), name: `v${i}` })).updatedAt,
        );
      }
      stamps.push((await handle.store.products.archive(created.id)).updatedAt);
      for (let i = 1; i < stamps.length; i += 1) {
        expect(Date.parse(stamps[i] as string)).toBeGreaterThan(Date.parse(stamps[i - 1] as string));
      }
    });

    it('keeps createdAt and seq when a product is replaced', async () => {
      const created = await handle.store.products.create(aProduct());
      const replaced = await handle.store.products.replace(created.id, aProduct({ name: 'Renamed' }));
      // Every write takes a later timestamp than the last, so a createdAt rewritten on replace would show.
      expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(created.createdAt));
      expect(replaced.createdAt).toBe(created.createdAt);
      expect(replaced.seq).toBe(created.seq);
      expect(replaced.name).toBe('Renamed');
    });

    it('refuses to create an id that exists and to replace or archive one that does not', async () => {
      const created = await handle.store.products.create(aProduct());
      await expect(handle.store.products.create(aProduct({ id: created.id }))).rejects.toBeInstanceOf(
        ValidationError,
      );
      const missing = '00000000-0000-4000-8000-000000000000';
      await expect(handle.store.products.replace(missing, aProduct())).rejects.toBeInstanceOf(NotFoundError);
      await expect(handle.store.products.archive(missing)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('rejects invalid records with the field and the reason', async () => {
      await expect(handle.store.products.create({ productCode: '', name: 'x' })).rejects.toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        details: { field: 'productCode' },
      });
      await expect(
        handle.store.products.create(aProduct({ webVisibility: { 'no-such-channel': true } })),
      ).rejects.toMatchObject({ details: { field: 'webVisibility.no-such-channel' } });
      const self = aProduct();
      await expect(
        handle.store.products.create({
          ...self,
          relatedProducts: [{ productId: self.id as string, relationType: 'optional', qty: 1 }],
        }),
      ).rejects.toBeInstanceOf(ValidationError);
    });

    it('writes a batch all or nothing: one bad record leaves none of the batch behind', async () => {
      const before = await handle.store.products.count();
      const batch = [aProduct(), aProduct(), aProduct({ webVisibility: { unknown: true } }), aProduct()];
      await expect(handle.store.products.upsertMany(batch)).rejects.toBeInstanceOf(ValidationError);
      expect(await handle.store.products.count()).toBe(before);
      expect(await handle.store.products.get(batch[0]?.id as string)).toBeUndefined();
      expect(await handle.store.brands.list()).toEqual([]);
    });

    it('upserts a batch by id, counting created and updated records', async () => {
      const first = aProduct();
      await handle.store.products.upsertMany([first]);
      const summary = await handle.store.products.upsertMany([{ ...first, name: 'Updated' }, aProduct()]);
      expect(summary).toEqual({ created: 1, updated: 1 });
      expect((await handle.store.products.get(first.id as string))?.name).toBe('Updated');
    });

    it('derives reverse "used by" entries from forward relations and never stores them', async () => {
      const part = await handle.store.products.create(aProduct({ erpCode: 'E-PART' }));
      const kit = await handle.store.products.create(
        aProduct({
          erpCode: 'E-KIT',
          relatedProducts: [{ productId: part.id, relationType: 'required', qty: 2, note: 'two per kit' }],
        }),
      );
      expect(kit.relatedProducts).toEqual([
        {
          productId: part.id,
          relationType: 'required',
          qty: 2,
          note: 'two per kit',
          productCode: part.productCode,
          erpCode: 'E-PART',
        },
      ]);
      const usedBy = await handle.store.products.get(part.id);
      expect(usedBy?.relatedProducts).toEqual([
        {
          productId: kit.id,
          relationType: 'required',
          qty: 2,
          productCode: kit.productCode,
          erpCode: 'E-KIT',
          source: 'reverse',
        },
      ]);
    });

    it('bumps the updatedAt of a product whose derived relations change', async () => {
      const part = await handle.store.products.create(aProduct());
      const kit = await handle.store.products.create(aProduct());
      const before = (await handle.store.products.get(part.id))?.updatedAt as string;
      await handle.store.products.replace(kit.id, {
        ...aProduct(),
        relatedProducts: [{ productId: part.id, relationType: 'optional', qty: 1 }],
      });
      const linked = await handle.store.products.get(part.id);
      expect(Date.parse(linked?.updatedAt as string)).toBeGreaterThan(Date.parse(before));
      await handle.store.products.replace(kit.id, { ...aProduct(), relatedProducts: [] });
      const unlinked = await handle.store.products.get(part.id);
      expect(unlinked?.relatedProducts).toEqual([]);
      expect(Date.parse(unlinked?.updatedAt as string)).toBeGreaterThan(
        Date.parse(linked?.updatedAt as string),
      );
    });

    it('shows a relation to a product that does not exist yet once that product arrives', async () => {
      const later = aProduct();
      const kit = await handle.store.products.create(
        aProduct({
          relatedProducts: [{ productId: later.id as string, relationType: 'substitute', qty: 1 }],
        }),
      );
      expect(kit.relatedProducts).toEqual([]);
      await handle.store.products.create(later);
      expect((await handle.store.products.get(kit.id))?.relatedProducts).toHaveLength(1);
      expect((await handle.store.products.get(later.id as string))?.relatedProducts[0]?.source).toBe(
        'reverse',
      );
    });

    it('drops reverse entries sent in an input instead of storing them', async () => {
      const other = await handle.store.products.create(aProduct());
      const created = await handle.store.products.create({
        ...aProduct(),
        relatedProducts: [
          { productId: other.id, relationType: 'optional', qty: 1, source: 'reverse' } as never,
        ],
      });
      expect(created.relatedProducts).toEqual([]);
    });

    it('creates a named brand on first use and reuses it by name or slug', async () => {
      const a = await handle.store.products.create(aProduct({ brandName: 'Zeta Works' }));
      const b = await handle.store.products.create(aProduct({ brandSlug: 'zeta-works' }));
      expect(a.brandSlug).toBe('zeta-works');
      expect(b.brandName).toBe('Zeta Works');
      expect(await handle.store.brands.list()).toHaveLength(1);
    });

    it('lists status-active products in insertion order, page by page', async () => {
      const inputs = [
        aProduct(),
        aProduct({ status: 'inactive' }),
        aProduct(),
        aProduct({ status: 'discontinued' }),
        aProduct(),
      ];
      await handle.store.products.upsertMany(inputs);
      const first = await handle.store.products.listActive({ limit: 2 });
      expect(first.products.map((p) => p.id)).toEqual([inputs[0]?.id, inputs[2]?.id]);
      const second = await handle.store.products.listActive({
        limit: 2,
        afterSeq: first.nextAfterSeq as number,
      });
      expect(second.products.map((p) => p.id)).toEqual([inputs[4]?.id]);
      expect(second.nextAfterSeq).toBeNull();
    });

    it('finds products by code ignoring case, accents and extra spaces', async () => {
      const created = await handle.store.products.create(
        aProduct({ productCode: 'Äb-12.3 X', erpCode: 'ERP 9' }),
      );
      expect(
        (await handle.store.products.findByCodes({ productCodes: ['  ab-12.3   x '] })).map((p) => p.id),
      ).toEqual([created.id]);
      expect((await handle.store.products.findByCodes({ erpCodes: ['erp 9'] })).map((p) => p.id)).toEqual([
        created.id,
      ]);
      expect(await handle.store.products.findByCodes({ productCodes: ['ab12.3x'] })).toEqual([]);
    });

    it('fetches many products by id, ignoring unknown ids', async () => {
      const a = await handle.store.products.create(aProduct());
      const b = await handle.store.products.create(aProduct());
      const found = await handle.store.products.getMany([b.id, '00000000-0000-4000-8000-000000000000', a.id]);
      expect(found.map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    });
  });
}
