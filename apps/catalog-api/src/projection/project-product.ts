import { PRODUCT_FIELDS } from '@catalog/contracts';

// The allowlist projection itself lives in the store, beside the records, because the search
// workers render their hits with it; GET /products/{productId} and the property test use it here.
export { externalProductJson, type ProductView, projectProduct } from '@catalog/store';

const ALLOWED = new Set<string>(PRODUCT_FIELDS);

/**
 * `fields=a,b,c` as a selection: names outside the allowlist are dropped without an error, and
 * `id` is always kept (decisions: Search semantics). Empty or absent selects everything.
 */
export function fieldSelection(fields: string | undefined): ReadonlySet<string> | undefined {
  if (fields === undefined || fields.trim() === '') return undefined;
  const selected = new Set(
    fields
      .split(',')
      .map((field) => field.trim())
      .filter((field) => ALLOWED.has(field)),
  );
  selected.add('id');
  return selected;
}
