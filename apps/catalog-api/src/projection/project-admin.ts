import { ADMIN_PRODUCT_FIELDS, type AdminBrand, type AdminProduct } from '@catalog/contracts';
import type { ProductRecord, Brand as StoredBrand } from '@catalog/store';

/**
 * The internal record as administrators see it (decisions: Catalogue model): every stored field,
 * relations as stored (with their notes; derived reverse entries are not part of the record).
 */
export function projectAdminProduct(record: ProductRecord): AdminProduct {
  const out: Record<string, unknown> = {};
  for (const field of ADMIN_PRODUCT_FIELDS) {
    switch (field) {
      case 'relatedProducts':
        out.relatedProducts = record.relatedProducts
          .filter((entry) => entry.source !== 'reverse')
          .map(({ productId, relationType, qty, note }) => ({
            productId,
            relationType,
            qty,
            ...(note === undefined ? {} : { note }),
          }));
        break;
      case 'displayOnWeb':
        if (record.displayOnWeb !== null) out.displayOnWeb = record.displayOnWeb;
        break;
      default:
        out[field] = record[field as keyof ProductRecord];
    }
  }
  return out as AdminProduct;
}

export function projectAdminBrand(brand: StoredBrand): AdminBrand {
  return {
    id: brand.id,
    name: brand.name,
    slug: brand.slug,
    archived: brand.archived,
    createdAt: brand.createdAt,
    updatedAt: brand.updatedAt,
  };
}
