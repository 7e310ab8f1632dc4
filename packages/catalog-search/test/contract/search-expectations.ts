import {
  displayOnWebFor,
  type ProductAggregations,
  type ProductRecord,
  type SortField,
  type SortOrder,
} from '@catalog/store';

/** SQLite's NOCASE, which the FTS5 engine's text sort columns use, folds ASCII letters only. */
const nocase = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
/** The FTS5 engine sorts a missing price or cost as this (its generated *_sort columns). */
const UNSET = -1e300;

const SORT_VALUES: Record<SortField, (p: ProductRecord) => string | number> = {
  name: (p) => nocase(p.name),
  code: (p) => nocase(p.productCode),
  brand: (p) => nocase(p.brandName),
  price: (p) => p.price ?? UNSET,
  category: (p) => nocase(p.category),
  department: (p) => nocase(p.department),
  subDepartment: (p) => nocase(p.subDepartment),
  supplierCost: (p) => p.supplierCost ?? UNSET,
  createdAt: (p) => Date.parse(p.createdAt),
  updatedAt: (p) => Date.parse(p.updatedAt),
};

/** What a product sorts by on `field`: the value the FTS5 engine's sort columns hold for it. */
export function sortValue(field: SortField, product: ProductRecord): string | number {
  return SORT_VALUES[field](product);
}

/** The order spec 4.1 promises: the sort key in the given direction, ties by seq the same way. */
export function expectedOrder(
  products: readonly ProductRecord[],
  field: SortField,
  order: SortOrder,
): string[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...products]
    .sort((a, b) => {
      const va = sortValue(field, a);
      const vb = sortValue(field, b);
      if (va !== vb) return (va < vb ? -1 : 1) * sign;
      return (a.seq - b.seq) * sign;
    })
    .map((p) => p.id);
}

export function visibleTo(
  products: readonly ProductRecord[],
  channel: string | null,
  visible: boolean,
): string[] {
  return products.filter((p) => displayOnWebFor(p, channel) === visible).map((p) => p.id);
}

/** Facet counts as the engine reports them: exact values, largest first, then by value. */
export function facetCounts(products: readonly ProductRecord[]): ProductAggregations {
  const facet = (field: 'brandName' | 'category' | 'department' | 'stockType') => {
    const counts = new Map<string, number>();
    for (const p of products) if (p[field] !== '') counts.set(p[field], (counts.get(p[field]) ?? 0) + 1);
    return Object.fromEntries([...counts].sort(([a, an], [b, bn]) => bn - an || (a < b ? -1 : 1)));
  };
  return {
    brandName: facet('brandName'),
    category: facet('category'),
    department: facet('department'),
    stockType: facet('stockType'),
  };
}
