import type {
  LinkedFile,
  ProductRecord,
  ProductStatus,
  RelatedProduct,
  SpareEntry,
} from '../../../model/product.ts';
import { columnOf, PLAIN_FIELDS } from '../../product-columns.ts';
import { toIso } from '../../timestamps.ts';

/** A products row as read-products.ts selects it: the record's columns and its derived parts. */
export interface ProductRow {
  [column: string]: unknown;
  web_visibility: Record<string, boolean>;
  forward: RelatedProduct[];
  reverse: RelatedProduct[];
}

/** Field and column pairs, computed once: every record read maps some fifty of them. */
const PLAIN_COLUMNS = PLAIN_FIELDS.map((field) => [field, columnOf(field)] as const);

/** Keys in the embedded engine's order, so that both engines serialise a record alike. */
export function toRecord(row: ProductRow): ProductRecord {
  const record: Record<string, unknown> = {
    seq: row.seq,
    id: row.id,
    brandName: row.brand_name,
    brandSlug: row.brand_slug,
    imageUrl: row.image_url,
    images: JSON.parse(row.images as string) as LinkedFile[],
    documents: JSON.parse(row.documents as string) as LinkedFile[],
    spares: JSON.parse(row.spares as string) as SpareEntry[],
    status: row.status as ProductStatus,
    archived: row.archived,
    displayOnWeb: row.display_on_web,
    webVisibility: row.web_visibility,
    relatedProducts: [...row.forward, ...row.reverse],
    createdAt: toIso(row.created_at as number),
    updatedAt: toIso(row.updated_at as number),
    version: row.version,
  };
  for (const [field, column] of PLAIN_COLUMNS) record[field] = row[column];
  return record as ProductRecord;
}
