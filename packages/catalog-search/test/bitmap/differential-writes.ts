import type { CatalogStore, ProductInput, ProductRecord } from '@catalog/store';
import { aProduct } from '@catalog/store/testing';

/** A record as the input that writes it back unchanged: forward relations only, no derived fields. */
function asInput(record: ProductRecord): ProductInput {
  const {
    seq: _seq,
    brandSlug: _slug,
    updatedAt: _updated,
    version: _version,
    relatedProducts,
    ...fields
  } = record;
  return {
    ...fields,
    relatedProducts: relatedProducts
      .filter((entry) => entry.source !== 'reverse')
      .map(({ productId, relationType, qty }) => ({ productId, relationType, qty })),
  };
}

/**
 * Writes of every kind that moves a product in or out of a match set, a filter, a facet or an
 * order: text, codes, price, brand, category, archive, visibility, new products, brand renames.
 */
export async function interleavedWrites(
  store: CatalogStore,
  rnd: () => number,
  sample: readonly ProductRecord[],
  channels: readonly string[],
  count: number,
): Promise<void> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  for (let n = 0; n < count; n += 1) {
    const kind = Math.floor(rnd() * 10);
    if (kind === 0) {
      const other = pick(sample);
      await store.products.create(
        aProduct({
          name: `${pick(sample).name} fresh`,
          brandName: other.brandName,
          category: other.category,
        }),
      );
      continue;
    }
    if (kind === 1) {
      const brands = await store.brands.list();
      const brand = pick(brands);
      await store.brands.update(brand.id, { name: `${brand.name} R${Math.floor(rnd() * 1e9).toString(36)}` });
      continue;
    }
    const record = await store.products.get(pick(sample).id);
    if (record === undefined) continue;
    const input = asInput(record);
    if (input.displayOnWeb === null) delete input.displayOnWeb;
    const other = pick(sample);
    switch (kind) {
      case 2:
        input.name = `${other.name.split(' ')[0]} ${record.name}`;
        break;
      case 3:
        input.price = rnd() < 0.2 ? null : Math.round(rnd() * 100_000) / 100;
        input.supplierCost = rnd() < 0.2 ? null : Math.round(rnd() * 50_000) / 100;
        break;
      case 4:
        input.brandName = other.brandName;
        input.category = other.category;
        input.department = other.department;
        input.stockType = other.stockType;
        break;
      case 5:
        input.archived = !record.archived;
        break;
      case 6:
        // Absent: not configured (the API's writes refuse null).
        if (rnd() < 0.3) delete input.displayOnWeb;
        else input.displayOnWeb = rnd() < 0.5;
        input.webVisibility = Object.fromEntries(
          channels.filter(() => rnd() < 0.5).map((slug) => [slug, rnd() < 0.5]),
        );
        break;
      case 7:
        input.productCode = `${record.productCode}-X${n}`;
        input.description = `${other.description} ${record.description}`;
        break;
      default:
        await store.products.archive(record.id);
        continue;
    }
    await store.products.replace(record.id, input);
  }
}
