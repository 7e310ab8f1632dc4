import { columnOf, PLAIN_FIELDS, RECORD_COLUMNS } from '../../product-columns.ts';

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
