import {
  type PlainField,
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  PRODUCT_TEXT_FIELDS,
  type ProductInput,
} from '../model/product.ts';
import { identifierKey } from '../search/identifier-key.ts';
import type { BrandRef } from '../write-rules/brand-rules.ts';
import { plainFieldValue, storedStatus } from '../write-rules/product-defaults.ts';

// The products table has the same columns on every engine (see each adapter's first migration).

export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Plain columns written straight from the input, in a fixed order. */
export const PLAIN_FIELDS: readonly PlainField[] = [
  ...PRODUCT_TEXT_FIELDS,
  ...PRODUCT_NULLABLE_NUMBER_FIELDS,
  ...PRODUCT_DIMENSION_FIELDS,
];

/** The columns a record holds beyond its plain fields: the brand's copy, the lists, the states. */
const SHAPED_COLUMNS = [
  'brand_name',
  'brand_slug',
  'image_url',
  'images',
  'documents',
  'spares',
  'status',
  'archived',
  'display_on_web',
];

/** The columns a full record is read from, in this order. */
export const RECORD_COLUMNS: readonly string[] = [
  'seq',
  'id',
  ...PLAIN_FIELDS.map(columnOf),
  ...SHAPED_COLUMNS,
  'created_at',
  'updated_at',
  'version',
];

/** The columns every write of a product sets, in the order of `writtenValues`. */
export const WRITTEN_COLUMNS: readonly string[] = [
  ...PLAIN_FIELDS.map(columnOf),
  'product_code_key',
  'erp_code_key',
  'brand_seq',
  ...SHAPED_COLUMNS,
  'updated_at',
];

/** A column's value as both engines' drivers take it; SQLite stores a boolean as 0 or 1. */
export type ColumnValue = string | number | boolean | null;

/** The WRITTEN_COLUMNS values of a checked input, its resolved brand and the write's timestamp. */
export function writtenValues(input: ProductInput, brand: BrandRef | null, ts: number): ColumnValue[] {
  return [
    ...PLAIN_FIELDS.map((field) => plainFieldValue(input, field)),
    identifierKey(input.productCode),
    identifierKey(input.erpCode ?? ''),
    brand?.seq ?? null,
    brand?.name ?? '',
    brand?.slug ?? '',
    input.imageUrl ?? null,
    JSON.stringify(input.images ?? []),
    JSON.stringify(input.documents ?? []),
    JSON.stringify(input.spares ?? []),
    storedStatus(input),
    input.archived === true,
    input.displayOnWeb ?? null,
    ts,
  ];
}
