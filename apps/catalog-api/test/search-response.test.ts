import { describe, expect, it } from 'vitest';
import { searchResponseJson } from '../src/projection/search-response.ts';

// The search body is assembled around documents serialised in the search worker; it must be the
// bytes JSON.stringify gives for the object form the route used to build.
describe('GET /products/search body assembly', () => {
  const hits = [
    { id: 'a', name: 'Drill "Pro"', relatedProducts: [] },
    { id: 'b', price: null },
  ];
  const page = {
    documents: hits.map((hit) => JSON.stringify(hit)),
    total: 2,
    totalIsLowerBound: false,
    from: 0,
    size: 20,
    hasMore: false,
    syncToken: null,
    queryTimeMs: 3,
    source: 'sqlite-fts5',
  };
  const objectForm = (extra: object = {}) => ({
    data: hits,
    pagination: { total: 2, totalIsLowerBound: false, from: 0, size: 20, hasMore: false, syncToken: null },
    syncToken: null,
    meta: { queryTimeMs: 3, source: 'sqlite-fts5' },
    ...extra,
  });

  it('is byte for byte the JSON of the object form', () => {
    expect(searchResponseJson(page)).toBe(JSON.stringify(objectForm()));
  });

  it('keeps aggregations last, and an empty page has data []', () => {
    const aggregations = { brandName: { Acme: 2 }, category: {}, department: {}, stockType: {} };
    expect(searchResponseJson({ ...page, aggregations })).toBe(JSON.stringify(objectForm({ aggregations })));
    expect(JSON.parse(searchResponseJson({ ...page, documents: [] })).data).toEqual([]);
  });
});
