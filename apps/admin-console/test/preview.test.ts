import { describe, expect, it } from 'vitest';
import { queryString } from '../src/api/client.ts';
import {
  buildPreviewQuery,
  cellText,
  countLine,
  DEFAULT_PREVIEW_FORM,
  MAX_PREVIEW_COLUMNS,
  previewColumns,
} from '../src/domain/preview.ts';

describe('preview query', () => {
  it('sends only the non-empty parameters', () => {
    expect(buildPreviewQuery({ ...DEFAULT_PREVIEW_FORM, clientId: 'A'.repeat(26) })).toEqual({
      asClient: 'A'.repeat(26),
      size: 20,
    });
  });

  it('a hypothetical client by scopes and channel, with every search field', () => {
    const query = buildPreviewQuery({
      ...DEFAULT_PREVIEW_FORM,
      subjectKind: 'hypothetical',
      clientId: 'ignored',
      scopes: ['products.read', 'brands.read'],
      channel: 'eu-shop',
      q: ' drill ',
      brandName: 'Makita',
      sort: 'price',
      order: 'desc',
      fields: 'id, name ,,displayOnWeb',
      displayOnWeb: 'true',
      includeArchived: true,
      updatedAfter: '2025-01-01T00:00:00Z',
      size: '5',
    });
    expect(query).toEqual({
      scopes: 'products.read,brands.read',
      channel: 'eu-shop',
      q: 'drill',
      brandName: 'Makita',
      sort: 'price',
      order: 'desc',
      fields: 'id,name,displayOnWeb',
      displayOnWeb: 'true',
      includeArchived: 'true',
      updatedAfter: '2025-01-01T00:00:00Z',
      size: 5,
    });
    expect(queryString(query)).toContain('scopes=products.read%2Cbrands.read&channel=eu-shop&q=drill');
  });

  it('no order without a sort', () => {
    expect(buildPreviewQuery({ ...DEFAULT_PREVIEW_FORM, order: 'desc', size: '' })).toEqual({});
  });
});

describe('preview results', () => {
  it('without fields: the default columns present in some record, and omitted fields as (omitted)', () => {
    const records = [{ id: '1', name: 'Drill', displayOnWeb: false }, { id: '2' }];
    expect(previewColumns(undefined, records)).toEqual(['id', 'name', 'displayOnWeb']);
    expect(cellText(records[0] ?? { id: '' }, 'displayOnWeb')).toBe('false');
    expect(cellText(records[1] ?? { id: '' }, 'displayOnWeb')).toBe('(omitted)');
  });

  it('with fields: id, then the asked fields in their order (withheld ones too), at most the maximum', () => {
    const records = [{ id: '1', name: 'Drill', price: 12.5 }];
    expect(previewColumns('price, name,id,supplierCost,price', records)).toEqual([
      'id',
      'price',
      'name',
      'supplierCost',
    ]);
    const many = Array.from({ length: 20 }, (_, index) => `field${index}`).join(',');
    expect(previewColumns(many, records)).toHaveLength(MAX_PREVIEW_COLUMNS);
  });

  it('objects and lists show as JSON, shortened past 60 characters', () => {
    const record = { id: '1', dimensions: { width: 2, height: 3 }, tags: ['a'.repeat(80)] };
    expect(cellText(record, 'dimensions')).toBe('{"width":2,"height":3}');
    expect(cellText(record, 'tags')).toHaveLength(60);
    expect(cellText(record, 'tags').endsWith('…')).toBe(true);
  });

  it('count line', () => {
    expect(countLine(10000, true)).toBe('At least 10,000 products match');
    expect(countLine(1, false)).toBe('1 product matches');
    expect(countLine(0, false)).toBe('0 products match');
  });
});
