// The internal ("admin model") product record of decisions.md. Narrow local types until
// @catalog/contracts exports the generated AdminProduct type; the shapes follow spec 2.1.

export const PRODUCT_STATUSES = ['active', 'inactive', 'discontinued'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

export const RELATION_TYPES = ['required', 'optional', 'substitute'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** Free-text fields stored as non-null strings ('' when absent). */
export const PRODUCT_TEXT_FIELDS = [
  'productCode',
  'name',
  'description',
  'range',
  'category',
  'department',
  'subDepartment',
  'stockType',
  'catalogue',
  'notes',
  'colour',
  'barcode',
  'weightUnit',
  'erpCode',
  'altSupplierCode',
  'altSupplierCode2',
  'webHierarchy',
  'type',
  'subType',
  'subSubType',
  'retailRange',
  'internalNote',
] as const;
export type ProductTextField = (typeof PRODUCT_TEXT_FIELDS)[number];

/** Money and margin fields: null means "not set". */
export const PRODUCT_NULLABLE_NUMBER_FIELDS = [
  'price',
  'retailPrice',
  'supplierCost',
  'costPrice',
  'marginPercent',
] as const;
export type ProductNullableNumberField = (typeof PRODUCT_NULLABLE_NUMBER_FIELDS)[number];

export const PRODUCT_DIMENSION_FIELDS = ['length', 'height', 'width', 'weight'] as const;
export type ProductDimensionField = (typeof PRODUCT_DIMENSION_FIELDS)[number];

/** The fields stored as they come, each in a column of its own. */
export type PlainField = ProductTextField | ProductNullableNumberField | ProductDimensionField;

export interface LinkedFile {
  url: string;
  name: string;
}

export interface RelatedProductInput {
  productId: string;
  relationType: RelationType;
  qty: number;
  note?: string;
}

/**
 * A relation as read back: stored ("forward") entries keep their note; entries derived from other
 * products pointing here carry `source: 'reverse'`. productCode/erpCode are inlined from the target.
 */
export interface RelatedProduct {
  productId: string;
  relationType: RelationType;
  qty: number;
  productCode: string;
  erpCode: string;
  note?: string;
  source?: 'reverse';
}

export interface SpareEntry {
  productId: string;
  qty: number;
}

type TextFields = { [K in ProductTextField]: string };
type NullableNumberFields = { [K in ProductNullableNumberField]: number | null };
type DimensionFields = { [K in ProductDimensionField]: number };

/** What admin writes and imports send. Omitted fields take their empty default. */
export type ProductInput = Partial<TextFields> &
  Partial<NullableNumberFields> &
  Partial<DimensionFields> & {
    /** Upsert key; generated when absent. */
    id?: string;
    productCode: string;
    name: string;
    /** Resolved to a brand: by slug when given, else by exact name; an unknown brand is created. */
    brandName?: string;
    brandSlug?: string;
    status?: ProductStatus;
    archived?: boolean;
    /** Stored default visibility; null/absent means "not configured" (= not visible). */
    displayOnWeb?: boolean | null;
    /** Per-channel visibility keyed by web-channel slug; each slug must be registered. */
    webVisibility?: Record<string, boolean>;
    imageUrl?: string | null;
    images?: LinkedFile[];
    documents?: LinkedFile[];
    relatedProducts?: RelatedProductInput[];
    spares?: SpareEntry[];
    /** Honoured on creation only (imports keep their history); the server sets it otherwise. */
    createdAt?: string;
  };

export type ProductRecord = TextFields &
  NullableNumberFields &
  DimensionFields & {
    id: string;
    /** Immutable insertion sequence; the keyset tiebreaker. */
    seq: number;
    brandName: string;
    brandSlug: string;
    status: ProductStatus;
    archived: boolean;
    displayOnWeb: boolean | null;
    webVisibility: Record<string, boolean>;
    imageUrl: string | null;
    images: LinkedFile[];
    documents: LinkedFile[];
    relatedProducts: RelatedProduct[];
    spares: SpareEntry[];
    createdAt: string;
    updatedAt: string;
    /** 1 when created, one more with every write that changes how the record reads (the ETag's source). */
    version: number;
  };
