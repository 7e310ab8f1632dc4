// Sort column IDs of GET /products/search and the record field each one sorts by.
import { catalogApiDocument } from './documents.ts';
import type { Product, SortColumn, SortOrder } from './types.ts';

/** name, code, brand, price, category, department, subDepartment, supplierCost, createdAt, updatedAt. */
export const SORT_COLUMNS: readonly SortColumn[] = catalogApiDocument.components.schemas.SortColumn.enum;

/** The field a sort column sorts by (`updatedAt` is stored but never returned in a body). */
export type SortField = keyof Product | 'updatedAt';

export const SORT_COLUMN_FIELD: Readonly<Record<SortColumn, SortField>> = {
  name: 'name',
  code: 'productCode',
  brand: 'brandName',
  price: 'price',
  category: 'category',
  department: 'department',
  subDepartment: 'subDepartment',
  supplierCost: 'supplierCost',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

export const SORT_ORDERS: readonly SortOrder[] = catalogApiDocument.components.schemas.SortDirection.enum;
export const DEFAULT_SORT_ORDER: SortOrder =
  catalogApiDocument.components.parameters.SortOrder.schema.default;

/** Whether a value is a sort direction (what `order` must be when `sort` is present). */
export const isSortOrder = (value: unknown): value is SortOrder => SORT_ORDERS.includes(value as SortOrder);
