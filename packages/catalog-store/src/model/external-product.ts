import type { Product, RelatedProduct } from '@catalog/contracts';
import { PRODUCT_FIELDS } from '@catalog/contracts/fields-and-errors';
import type { ProductRecord, RelatedProduct as StoredRelation } from './product.ts';
import { displayOnWebFor } from './visibility.ts';

// The external representation lives beside the records rather than in the API, because search
// workers render their hits in it: the main thread then neither receives the internal records
// (a structured clone of some 50 fields each) nor builds and serialises them again.

export interface ProductView {
  /** Web channel of the calling client; null for an unbound client or an administrator. */
  readonly channel: string | null;
  /** GET /products/{productId}: relation entries carry productCode and erpCode inline (spec 2.1). */
  readonly withRelationCodes: boolean;
  /** The caller's `fields` selection; undefined = every allowed field. */
  readonly fields?: ReadonlySet<string> | undefined;
}

function relation(entry: StoredRelation, withCodes: boolean): RelatedProduct {
  return {
    productId: entry.productId,
    ...(withCodes ? { productCode: entry.productCode, erpCode: entry.erpCode } : {}),
    relationType: entry.relationType,
    qty: entry.qty,
    ...(entry.source === 'reverse' ? { source: 'reverse' as const } : {}),
  };
}

/**
 * A bound client always gets an explicit value for its channel; an unbound one gets the stored flag,
 * omitted when none is configured (a missing value means not visible) (spec 2.1).
 */
function displayOnWeb(record: ProductRecord, channel: string | null): boolean | undefined {
  if (channel !== null) return displayOnWebFor(record, channel);
  return record.displayOnWeb ?? undefined;
}

/**
 * The external representation of spec 2.1: built field by field from the allowlist, so nothing
 * the internal record holds beyond it (status, internal note, spares, cost and margin, updatedAt,
 * relation notes) can reach the caller, whatever the scope or `fields`.
 */
export function projectProduct(record: ProductRecord, view: ProductView): Product {
  const out: Record<string, unknown> = {};
  for (const field of PRODUCT_FIELDS) {
    if (view.fields !== undefined && !view.fields.has(field)) continue;
    switch (field) {
      case 'displayOnWeb': {
        const visible = displayOnWeb(record, view.channel);
        if (visible !== undefined) out.displayOnWeb = visible;
        break;
      }
      case 'relatedProducts':
        out.relatedProducts = record.relatedProducts.map((entry) => relation(entry, view.withRelationCodes));
        break;
      case 'images':
      case 'documents':
        out[field] = record[field].map(({ url, name }) => ({ url, name }));
        break;
      default:
        out[field] = record[field];
    }
  }
  return out as Product;
}

/** The external representation as JSON text, as a response body embeds it. */
export function externalProductJson(record: ProductRecord, view: ProductView): string {
  return JSON.stringify(projectProduct(record, view));
}
