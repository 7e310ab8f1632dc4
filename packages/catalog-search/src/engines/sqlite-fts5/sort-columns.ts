import type { SortField } from '@catalog/store';

export interface SortColumn {
  column: string;
  /** The (column, seq) index a saturated query walks. */
  index: string;
  /** Text columns are declared COLLATE NOCASE; comparisons outside the table must say so. */
  text: boolean;
}

export const SORT_COLUMNS: Record<SortField, SortColumn> = {
  name: { column: 'name', index: 'products_sort_name', text: true },
  code: { column: 'product_code', index: 'products_sort_code', text: true },
  brand: { column: 'brand_name', index: 'products_sort_brand', text: true },
  price: { column: 'price_sort', index: 'products_sort_price', text: false },
  category: { column: 'category', index: 'products_sort_category', text: true },
  department: { column: 'department', index: 'products_sort_department', text: true },
  subDepartment: { column: 'sub_department', index: 'products_sort_sub_department', text: true },
  supplierCost: { column: 'supplier_cost_sort', index: 'products_sort_supplier_cost', text: false },
  createdAt: { column: 'created_at', index: 'products_sort_created_at', text: false },
  updatedAt: { column: 'updated_at', index: 'products_sort_updated_at', text: false },
};
