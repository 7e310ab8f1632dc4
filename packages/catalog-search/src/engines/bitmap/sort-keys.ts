import type { SortField } from '@catalog/store';
import type { CatalogueIndex } from './catalogue-index.ts';
import type { InternedColumn } from './interned-column.ts';

/** A sort key as compared: text folded as SQLite's NOCASE folds it, or a number. */
export type Comparable = string | number;

const UPPER_ASCII = /[A-Z]/;
const UPPER_ASCII_RUNS = /[A-Z]+/g;
/** Code units whose UTF-16 order differs from UTF-8's byte order (surrogates vs U+E000–U+FFFF). */
export const ORDER_DIFFERS = /[\uD800-\uFFFF]/;

/** SQLite's NOCASE: ASCII letters folded, nothing else. */
export function nocase(text: string): string {
  return UPPER_ASCII.test(text) ? text.replace(UPPER_ASCII_RUNS, (run) => run.toLowerCase()) : text;
}

/** Text in SQLite's order: the bytes of its UTF-8. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  if (!ORDER_DIFFERS.test(a) && !ORDER_DIFFERS.test(b)) return a < b ? -1 : 1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function compareKeys(a: Comparable, b: Comparable): number {
  if (typeof a === 'number') return a === b ? 0 : a < (b as number) ? -1 : 1;
  return compareText(a, b as string);
}

/** How a sort field reads a product: its raw value (what a cursor carries) and whether it is text. */
export interface SortKey {
  readonly text: boolean;
  raw(seq: number): string | number;
  /** A numeric column, by seq: an order is built from it without a value object per product. */
  readonly numbers?: () => Float64Array;
  /** A column of few values: an order is built from the sorted values and each product's value id. */
  readonly interned?: InternedColumn;
}

export function sortKeyOf(index: CatalogueIndex, field: SortField): SortKey {
  const interned = (column: InternedColumn): SortKey => ({
    text: true,
    raw: (seq) => column.value(seq),
    interned: column,
  });
  const numeric = (column: () => Float64Array): SortKey => ({
    text: false,
    raw: (seq) => column()[seq] as number,
    numbers: column,
  });
  switch (field) {
    case 'name':
      return { text: true, raw: (seq) => index.name.get(seq) };
    case 'code':
      return { text: true, raw: (seq) => index.productCode.get(seq) };
    case 'brand':
      return interned(index.brandName);
    case 'category':
      return interned(index.category);
    case 'department':
      return interned(index.department);
    case 'subDepartment':
      return interned(index.subDepartment);
    case 'price':
      return numeric(() => index.price);
    case 'supplierCost':
      return numeric(() => index.supplierCost);
    case 'createdAt':
      return numeric(() => index.createdAt);
    case 'updatedAt':
      return numeric(() => index.updatedAt);
  }
}

/** The value a key compares by. */
export function comparable(key: SortKey, value: string | number): Comparable {
  return key.text ? nocase(String(value)) : Number(value);
}
