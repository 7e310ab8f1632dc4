// Query objects as natural code writes them: booleans and field lists type-check and are serialised as
// the contract's strings; the contract's own strings stay accepted; anything else is a type error.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ListBrandsQuery, SearchProductsQuery } from '../../src/index.ts';
import { buildUrl } from '../../src/resources/query.ts';

const base = new URL('https://catalog.example/v1/');

describe('natural query types', () => {
  it('includeArchived, displayOnWeb and includeAggregations take a boolean or the contract strings', () => {
    expectTypeOf<{ includeArchived: true }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ includeArchived: 'false' }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ displayOnWeb: false; includeAggregations: true }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ includeArchived: boolean }>().toExtend<ListBrandsQuery>();
    expectTypeOf<{ includeArchived: 'yes' }>().not.toExtend<SearchProductsQuery>();
    expectTypeOf<{ includeArchived: 1 }>().not.toExtend<SearchProductsQuery>();
  });

  it('fields takes a list of names or the contract comma-separated string; other parameters keep their types', () => {
    expectTypeOf<{ fields: string[] }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ fields: readonly ['id', 'name'] }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ fields: 'id,name' }>().toExtend<SearchProductsQuery>();
    expectTypeOf<{ q: string[] }>().not.toExtend<SearchProductsQuery>();
    expectTypeOf<{ q: true }>().not.toExtend<SearchProductsQuery>();
    expectTypeOf<{ updatedAfter: false }>().not.toExtend<SearchProductsQuery>();
    expectTypeOf<{ size: boolean }>().not.toExtend<SearchProductsQuery>();
    expectTypeOf<{ order: 'sideways' }>().not.toExtend<SearchProductsQuery>();
  });

  it('booleans and lists are serialised as the contract strings; undefined values are left out', () => {
    const query: SearchProductsQuery = {
      includeArchived: true,
      displayOnWeb: false,
      fields: ['id', 'name', 'price'],
      size: 5,
    };
    const url = buildUrl(base, 'products/search', { ...query, q: undefined });
    expect(url.pathname).toBe('/v1/products/search');
    expect([...url.searchParams]).toEqual([
      ['includeArchived', 'true'],
      ['displayOnWeb', 'false'],
      ['fields', 'id,name,price'],
      ['size', '5'],
    ]);
  });
});
