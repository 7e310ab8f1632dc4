import { PRODUCT_FIELDS, RELATED_PRODUCT_FIELDS } from '@catalog/contracts';
import type { ProductRecord } from '@catalog/store';
import { checkProperty, type PropertyBudget } from '@catalog/vitest-config/property';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldSelection, projectProduct } from '../src/projection/project-product.ts';

const text = fc.string({ maxLength: 12 });
const money = fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null });
const link = fc.record({ url: fc.webUrl(), name: text }, { noNullPrototype: true });
// Internal records as the store could hold them, with junk keys the allowlist must never let through.
const junk = fc.dictionary(
  fc.constantFrom('internalNote', 'secret', 'costPrice', 'updatedAt', 'status', 'x'),
  text,
);

const relation = fc.record({
  productId: fc.uuid(),
  relationType: fc.constantFrom('required', 'optional', 'substitute'),
  qty: fc.integer({ min: 1, max: 50 }),
  productCode: text,
  erpCode: text,
  note: fc.option(text, { nil: undefined }),
  source: fc.option(fc.constant('reverse' as const), { nil: undefined }),
  name: text,
  imageUrl: text,
  archived: fc.boolean(),
});

const record: fc.Arbitrary<ProductRecord> = fc
  .record({
    id: fc.uuid(),
    seq: fc.nat(),
    productCode: text,
    name: text,
    description: text,
    brandName: text,
    brandSlug: text,
    range: text,
    category: text,
    department: text,
    subDepartment: text,
    stockType: text,
    catalogue: text,
    notes: text,
    colour: text,
    barcode: text,
    weightUnit: text,
    erpCode: text,
    altSupplierCode: text,
    altSupplierCode2: text,
    webHierarchy: text,
    type: text,
    subType: text,
    subSubType: text,
    retailRange: text,
    internalNote: text,
    price: money,
    retailPrice: money,
    supplierCost: money,
    costPrice: money,
    marginPercent: money,
    length: fc.nat(),
    height: fc.nat(),
    width: fc.nat(),
    weight: fc.nat(),
    status: fc.constantFrom('active', 'inactive', 'discontinued'),
    archived: fc.boolean(),
    displayOnWeb: fc.option(fc.boolean(), { nil: null }),
    webVisibility: fc.dictionary(fc.constantFrom('uk-shop', 'eu-shop', 'trade'), fc.boolean()),
    imageUrl: fc.option(fc.webUrl(), { nil: null }),
    images: fc.array(link, { maxLength: 3 }),
    documents: fc.array(link, { maxLength: 3 }),
    relatedProducts: fc.array(relation, { maxLength: 4 }),
    spares: fc.array(fc.record({ productId: fc.uuid(), qty: fc.nat() }), { maxLength: 3 }),
    createdAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    updatedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  })
  .chain((base) => junk.map((extra) => ({ ...extra, ...base }) as unknown as ProductRecord));

const channel = fc.option(fc.constantFrom('uk-shop', 'eu-shop', 'trade'), { nil: null });
const fields = fc.option(
  fc
    .array(fc.constantFrom(...PRODUCT_FIELDS, 'internalNote', 'spares', 'costPrice', 'status', 'bogus'))
    .map((f) => f.join(',')),
  { nil: undefined },
);

// Pure functions: hundreds of runs take well under a second alone.
const budget = (runs: number, seed: number): PropertyBudget => ({ runs, heavyRuns: runs * 40, seed });

describe('projection through the allowlist (spec 2.1, 5.11), for any internal record', () => {
  it('never lets a field outside the allowlist leave, whatever the channel, fields or relation detail', async () => {
    await checkProperty(
      fc.property(record, channel, fields, fc.boolean(), (product, bound, selection, withCodes) => {
        const out = projectProduct(product, {
          channel: bound,
          withRelationCodes: withCodes,
          fields: fieldSelection(selection),
        });
        for (const key of Object.keys(out)) expect(PRODUCT_FIELDS as readonly string[]).toContain(key);
        for (const entry of (out.relatedProducts ?? []) as object[]) {
          for (const key of Object.keys(entry))
            expect(RELATED_PRODUCT_FIELDS as readonly string[]).toContain(key);
          expect(entry).not.toHaveProperty('note');
          expect(entry).not.toHaveProperty('name');
          expect(entry).not.toHaveProperty('imageUrl');
          expect(entry).not.toHaveProperty('archived');
          if (!withCodes) expect(entry).not.toHaveProperty('productCode');
        }
        for (const file of [...(out.images ?? []), ...(out.documents ?? [])]) {
          expect(Object.keys(file).sort()).toEqual(['name', 'url']);
        }
      }),
      budget(500, 20261122),
    );
  });

  it('always keeps id, whatever fields asks for', async () => {
    await checkProperty(
      fc.property(record, fields, (product, selection) => {
        expect(
          projectProduct(product, {
            channel: null,
            withRelationCodes: false,
            fields: fieldSelection(selection),
          }).id,
        ).toBe(product.id);
      }),
      budget(200, 7),
    );
  });

  it('gives a bound client an explicit boolean and an unbound client the stored flag or nothing', async () => {
    await checkProperty(
      fc.property(record, channel, (product, bound) => {
        const out = projectProduct(product, { channel: bound, withRelationCodes: false });
        if (bound !== null) expect(typeof out.displayOnWeb).toBe('boolean');
        else if (product.displayOnWeb === null) expect(out).not.toHaveProperty('displayOnWeb');
        else expect(out.displayOnWeb).toBe(product.displayOnWeb);
      }),
      budget(300, 11),
    );
  });
});
