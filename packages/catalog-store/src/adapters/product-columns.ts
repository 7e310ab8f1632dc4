import {
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  PRODUCT_TEXT_FIELDS,
  type ProductDimensionField,
  type ProductNullableNumberField,
  type ProductTextField,
} from '../model/product.ts';

// The products table has the same columns on every engine (see each adapter's first migration).

export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export type PlainField = ProductTextField | ProductNullableNumberField | ProductDimensionField;

/** Plain columns written straight from the input, in a fixed order. */
export const PLAIN_FIELDS: readonly PlainField[] = [
  ...PRODUCT_TEXT_FIELDS,
  ...PRODUCT_NULLABLE_NUMBER_FIELDS,
  ...PRODUCT_DIMENSION_FIELDS,
];

/** The columns a full record is read from, in this order. */
export const RECORD_COLUMNS: readonly string[] = [
  'seq',
  'id',
  ...PLAIN_FIELDS.map(columnOf),
  'brand_name',
  'brand_slug',
  'image_url',
  'images',
  'documents',
  'spares',
  'status',
  'archived',
  'display_on_web',
  'created_at',
  'updated_at',
];

/** The columns every write of a product sets, in the order of each adapter's `rowValues`. */
export const WRITTEN_COLUMNS: readonly string[] = [
  ...PLAIN_FIELDS.map(columnOf),
  'product_code_key',
  'erp_code_key',
  'brand_seq',
  'brand_name',
  'brand_slug',
  'image_url',
  'images',
  'documents',
  'spares',
  'status',
  'archived',
  'display_on_web',
  'updated_at',
];
