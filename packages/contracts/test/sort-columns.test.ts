import { describe, expect, it } from 'vitest';
import {
  catalogApiDocument,
  DEFAULT_SORT_ORDER,
  SORT_COLUMN_FIELD,
  SORT_COLUMNS,
  SORT_ORDERS,
} from '../src/index.ts';

describe('spec 4.1: sort column IDs of GET /products/search', () => {
  it('are exactly the ten column IDs', () => {
    expect(SORT_COLUMNS).toEqual([
      'name',
      'code',
      'brand',
      'price',
      'category',
      'department',
      'subDepartment',
      'supplierCost',
      'createdAt',
      'updatedAt',
    ]);
  });

  it('map to fields: code → productCode, brand → brandName, the others to themselves', () => {
    expect(Object.keys(SORT_COLUMN_FIELD)).toEqual([
      ...catalogApiDocument.components.schemas.SortColumn.enum,
    ]);
    for (const column of SORT_COLUMNS) {
      const expected = column === 'code' ? 'productCode' : column === 'brand' ? 'brandName' : column;
      expect(SORT_COLUMN_FIELD[column]).toBe(expected);
    }
  });

  it('order is asc or desc, default desc', () => {
    expect(SORT_ORDERS).toEqual(['asc', 'desc']);
    expect(DEFAULT_SORT_ORDER).toBe('desc');
  });
});
