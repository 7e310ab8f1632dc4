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

/** The columns a full record is read from, in this order. */
const RECORD_COLUMNS = [
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

export const PRODUCT_ROW_COLUMNS = RECORD_COLUMNS.join(', ');

/** A products row read as an array (`setReturnArrays`), in PRODUCT_ROW_COLUMNS order. */
export type ProductRow = ReadonlyArray<string | number | null>;

/** The position of `column` in a ProductRow. */
export function rowIndexOf(column: string): number {
  const index = RECORD_COLUMNS.indexOf(column);
  if (index < 0) throw new Error(`${column} is not read into records`);
  return index;
}

/** [field, row index] pairs, computed once: mapping rows is on every search's hot path. */
export const PLAIN_FIELD_INDEXES: ReadonlyArray<readonly [(typeof PLAIN_FIELDS)[number], number]> =
  PLAIN_FIELDS.map((field) => [field, rowIndexOf(columnOf(field))] as const);
