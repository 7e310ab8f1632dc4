// The allowlists are the property lists of closed schemas, and those lists are the spec's, written out here.
import { describe, expect, it } from 'vitest';
import {
  ADMIN_PRODUCT_FIELDS,
  BRAND_FIELDS,
  catalogApiDocument,
  INTERNAL_PRODUCT_FIELDS,
  M2M_CLIENT_CREATED_FIELDS,
  M2M_CLIENT_FIELDS,
  PRODUCT_FIELDS,
  REDUCED_PRODUCT_FIELDS,
  RELATED_PRODUCT_FIELDS,
} from '../src/index.ts';

const schemas = catalogApiDocument.components.schemas;

// Spec 2.1, in table order ("length, height, width, weight" and "type, subType, subSubType" expanded).
const SPEC_PRODUCT_FIELDS = [
  'id',
  'productCode',
  'name',
  'description',
  'brandName',
  'brandSlug',
  'range',
  'category',
  'department',
  'subDepartment',
  'stockType',
  'catalogue',
  'displayOnWeb',
  'notes',
  'colour',
  'price',
  'retailPrice',
  'supplierCost',
  'barcode',
  'length',
  'height',
  'width',
  'weight',
  'weightUnit',
  'createdAt',
  'imageUrl',
  'images',
  'documents',
  'erpCode',
  'altSupplierCode',
  'altSupplierCode2',
  'webHierarchy',
  'type',
  'subType',
  'subSubType',
  'retailRange',
  'relatedProducts',
];

describe('spec 2.1: the product allowlist', () => {
  it('is exactly the field list of 2.1, in its order', () => {
    expect(PRODUCT_FIELDS).toEqual(SPEC_PRODUCT_FIELDS);
  });

  it('is closed: no other field is ever returned', () => {
    expect(schemas.Product.additionalProperties).toBe(false);
  });

  it('never contains internal or server-only fields', () => {
    for (const hidden of [
      'updatedAt',
      'status',
      'archived',
      'internalNote',
      'spares',
      'costPrice',
      'marginPercent',
    ]) {
      expect(PRODUCT_FIELDS).not.toContain(hidden);
    }
  });

  it('types the prices, supplierCost and imageUrl as nullable and the rest per the table', () => {
    const p = schemas.Product.properties;
    for (const nullable of [p.price, p.retailPrice, p.supplierCost])
      expect(nullable.type).toEqual(['number', 'null']);
    expect(p.imageUrl.type).toEqual(['string', 'null']);
    expect(p.displayOnWeb.type).toBe('boolean');
    for (const dimension of [p.length, p.height, p.width, p.weight]) expect(dimension.type).toBe('number');
    expect(p.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(p.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(schemas.ProductLink.properties.url).toMatchObject({ type: 'string', format: 'uri' });
  });
});

describe('spec 2.1: relatedProducts entries', () => {
  it('carry exactly productId, productCode, erpCode, relationType, qty, source', () => {
    expect(RELATED_PRODUCT_FIELDS).toEqual([
      'productId',
      'productCode',
      'erpCode',
      'relationType',
      'qty',
      'source',
    ]);
  });

  it('never return note, name, imageUrl or archived (closed schema)', () => {
    expect(schemas.RelatedProduct.additionalProperties).toBe(false);
  });

  it('require productId; relationType is required|optional|substitute; source is only reverse', () => {
    expect(schemas.RelatedProduct.required).toContain('productId');
    expect(schemas.RelationType.enum).toEqual(['required', 'optional', 'substitute']);
    expect(schemas.RelatedProduct.properties.source.enum).toEqual(['reverse']);
  });
});

describe('spec 2.2: the reduced product of the deprecated list', () => {
  it('has exactly id, productCode, brandName, category, description, price, imageUrl, createdAt', () => {
    expect(REDUCED_PRODUCT_FIELDS).toEqual([
      'id',
      'productCode',
      'brandName',
      'category',
      'description',
      'price',
      'imageUrl',
      'createdAt',
    ]);
    expect(schemas.ReducedProduct.additionalProperties).toBe(false);
    expect(schemas.ReducedProduct.properties.imageUrl.type).toEqual(['string', 'null']);
  });
});

describe('spec 2.3: the brand', () => {
  it('has exactly id, name, slug', () => {
    expect(BRAND_FIELDS).toEqual(['id', 'name', 'slug']);
    expect(schemas.Brand.additionalProperties).toBe(false);
  });
});

describe('spec 2.4: the M2M client', () => {
  const listed = [
    'clientId',
    'clientName',
    'description',
    'scopes',
    'status',
    'createdAt',
    'createdBy',
    'expiresAt',
    'lastUsedAt',
    'usageCount',
    'revokedAt',
    'revokedBy',
    'channel',
  ];

  it('as listed and updated, has the fields of 2.4 without clientSecret, tokenEndpoint and warning', () => {
    expect(M2M_CLIENT_FIELDS).toEqual(listed);
    expect(schemas.M2MClient.additionalProperties).toBe(false);
  });

  it('as created, adds clientSecret, tokenEndpoint and warning', () => {
    expect(M2M_CLIENT_CREATED_FIELDS).toEqual([...listed, 'clientSecret', 'tokenEndpoint', 'warning']);
    expect(schemas.M2MClientCreated.additionalProperties).toBe(false);
  });

  it('constrains clientId, clientName and description as 2.4 says, clientName narrowed to single spaces', () => {
    expect(schemas.ClientId.pattern).toBe('^[a-zA-Z0-9]{26}$');
    expect(schemas.ClientName).toMatchObject({ minLength: 3, maxLength: 100 });
    // Every name the contract accepts, spec 2.4's pattern accepts too; only its look-alikes are refused.
    const spec = /^[a-zA-Z0-9\s\-_]+$/u;
    const narrowed = new RegExp(schemas.ClientName.pattern, 'u');
    for (const name of ['ERP sync_2-prod', 'a-b c_d', 'abc', 'A B C', '---', '_1_'])
      expect([name, narrowed.test(name), spec.test(name)]).toEqual([name, true, true]);
    for (const name of ['   ', ' abc', 'abc ', 'a  b', 'a\tb', 'a\nb', 'a\u00a0b', 'a\u2028b', '\ufeffabc'])
      expect([name, narrowed.test(name), spec.test(name)]).toEqual([name, false, true]);
    expect(schemas.ClientDescription.maxLength).toBe(500);
    expect(schemas.ClientStatus.enum).toEqual(['active', 'revoked']);
  });
});

describe('decisions: the internal (admin) product record', () => {
  it('has every external field except the projected relations, plus the internal ones', () => {
    const external = PRODUCT_FIELDS.filter((field) => field !== 'relatedProducts');
    expect(ADMIN_PRODUCT_FIELDS).toEqual(
      expect.arrayContaining([...external, 'relatedProducts', 'updatedAt']),
    );
    expect([...INTERNAL_PRODUCT_FIELDS].sort()).toEqual(
      [
        'archived',
        'costPrice',
        'internalNote',
        'marginPercent',
        'spares',
        'status',
        'updatedAt',
        'webVisibility',
      ].sort(),
    );
  });

  it('lets relation entries carry a note, and marks id, createdAt and updatedAt read-only', () => {
    expect(Object.keys(schemas.AdminRelatedProduct.properties)).toContain('note');
    const p = schemas.AdminProduct.properties;
    expect([p.id.readOnly, p.createdAt.readOnly, p.updatedAt.readOnly]).toEqual([true, true, true]);
    expect(schemas.ProductStatus.enum).toEqual(['active', 'inactive', 'discontinued']);
  });
});
