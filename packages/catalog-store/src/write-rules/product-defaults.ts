import {
  type PlainField,
  PRODUCT_DIMENSION_FIELDS,
  PRODUCT_NULLABLE_NUMBER_FIELDS,
  type ProductInput,
  type ProductStatus,
} from '../model/product.ts';

const ZERO_WHEN_ABSENT = new Set<string>(PRODUCT_DIMENSION_FIELDS);
const NULL_WHEN_ABSENT = new Set<string>(PRODUCT_NULLABLE_NUMBER_FIELDS);

/**
 * What a product stores for a plain field its input leaves out: a dimension is 0, a price or cost
 * unknown (null), a text empty. A full replace resets whatever the input does not send.
 */
export function plainFieldValue(input: ProductInput, field: PlainField): string | number | null {
  const value = input[field];
  if (value !== undefined) return value;
  if (ZERO_WHEN_ABSENT.has(field)) return 0;
  return NULL_WHEN_ABSENT.has(field) ? null : '';
}

export function storedStatus(input: ProductInput): ProductStatus {
  return input.status ?? 'active';
}
