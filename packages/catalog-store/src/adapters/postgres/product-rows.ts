import {
  type LinkedFile,
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  type ProductInput,
  type ProductRecord,
  type ProductStatus,
  type RelatedProduct,
  type SpareEntry,
} from '../../model/product.ts';
import { identifierKey } from '../../search/identifier-key.ts';
import { columnOf, PLAIN_FIELDS, type PlainField } from '../product-columns.ts';
import { toIso } from '../timestamps.ts';
import type { BrandRef } from './write-brand.ts';

export type ColumnValue = string | number | boolean | null;

const ZERO_WHEN_ABSENT = new Set<PlainField>(PRODUCT_DIMENSION_FIELDS);
const NULL_WHEN_ABSENT = new Set<PlainField>(PRODUCT_NULLABLE_NUMBER_FIELDS);

function plainValue(input: ProductInput, field: PlainField): ColumnValue {
  const value = input[field];
  if (value !== undefined) return value;
  if (ZERO_WHEN_ABSENT.has(field)) return 0;
  return NULL_WHEN_ABSENT.has(field) ? null : '';
}

/** The WRITTEN_COLUMNS values of a checked input, its resolved brand and the write's timestamp. */
export function rowValues(input: ProductInput, brand: BrandRef | null, ts: number): ColumnValue[] {
  return [
    ...PLAIN_FIELDS.map((field) => plainValue(input, field)),
    identifierKey(input.productCode),
    identifierKey(input.erpCode ?? ''),
    brand?.seq ?? null,
    brand?.name ?? '',
    brand?.slug ?? '',
    input.imageUrl ?? null,
    JSON.stringify(input.images ?? []),
    JSON.stringify(input.documents ?? []),
    JSON.stringify(input.spares ?? []),
    input.status ?? 'active',
    input.archived === true,
    input.displayOnWeb ?? null,
    ts,
  ];
}

/** createdAt is the input's on creation (an import keeps its history), else the write's. */
export function createdAtOf(input: ProductInput, ts: number): number {
  return input.createdAt === undefined ? ts : Date.parse(input.createdAt);
}

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
  };
  for (const [field, column] of PLAIN_COLUMNS) record[field] = row[column];
  return record as ProductRecord;
}
