import {
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  PRODUCT_TEXT_FIELDS,
  type ProductDimensionField,
  type ProductNullableNumberField,
  type ProductTextField,
} from '../../model/product.ts';

export function columnOf(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Plain columns written straight from the input, in a fixed order. */
export const PLAIN_FIELDS: ReadonlyArray<
  ProductTextField | ProductNullableNumberField | ProductDimensionField
> = [...PRODUCT_TEXT_FIELDS, ...PRODUCT_NULLABLE_NUMBER_FIELDS, ...PRODUCT_DIMENSION_FIELDS];

/** [field, column] pairs, computed once: mapping rows is on every search's hot path. */
export const PLAIN_FIELD_COLUMNS: ReadonlyArray<readonly [(typeof PLAIN_FIELDS)[number], string]> =
  PLAIN_FIELDS.map((field) => [field, columnOf(field)] as const);

export const PRODUCT_ROW_COLUMNS = [
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
].join(', ');

export type ProductRow = Record<string, string | number | null>;
