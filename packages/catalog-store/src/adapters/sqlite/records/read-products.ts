import type { DatabaseSync } from 'node:sqlite';
import type {
  LinkedFile,
  ProductRecord,
  ProductStatus,
  RelatedProduct,
  RelationType,
  SpareEntry,
} from '../../../model/product.ts';
import { toIso } from '../../timestamps.ts';
import { statement } from '../statement-cache.ts';
import { PLAIN_FIELD_INDEXES, PRODUCT_ROW_COLUMNS, type ProductRow, rowIndexOf } from './product-columns.ts';

interface RelationRow {
  owner: string | number;
  product_id: string;
  relation_type: RelationType;
  qty: number;
  note: string | null;
  product_code: string;
  erp_code: string;
}

/** Where the fields that are not plain columns sit in a ProductRow. */
const AT = {
  seq: rowIndexOf('seq'),
  id: rowIndexOf('id'),
  brandName: rowIndexOf('brand_name'),
  brandSlug: rowIndexOf('brand_slug'),
  imageUrl: rowIndexOf('image_url'),
  images: rowIndexOf('images'),
  documents: rowIndexOf('documents'),
  spares: rowIndexOf('spares'),
  status: rowIndexOf('status'),
  archived: rowIndexOf('archived'),
  displayOnWeb: rowIndexOf('display_on_web'),
  createdAt: rowIndexOf('created_at'),
  updatedAt: rowIndexOf('updated_at'),
  version: rowIndexOf('version'),
};

function toRecord(row: ProductRow): ProductRecord {
  const displayOnWeb = row[AT.displayOnWeb];
  const record: Record<string, unknown> = {
    seq: row[AT.seq],
    id: row[AT.id],
    brandName: row[AT.brandName],
    brandSlug: row[AT.brandSlug],
    imageUrl: row[AT.imageUrl],
    images: JSON.parse(row[AT.images] as string) as LinkedFile[],
    documents: JSON.parse(row[AT.documents] as string) as LinkedFile[],
    spares: JSON.parse(row[AT.spares] as string) as SpareEntry[],
    status: row[AT.status] as ProductStatus,
    archived: row[AT.archived] === 1,
    displayOnWeb: displayOnWeb === null ? null : displayOnWeb === 1,
    webVisibility: {},
    relatedProducts: [],
    createdAt: toIso(row[AT.createdAt] as number),
    updatedAt: toIso(row[AT.updatedAt] as number),
    version: row[AT.version],
  };
  for (const [field, index] of PLAIN_FIELD_INDEXES) record[field] = row[index];
  return record as ProductRecord;
}

function relation(row: RelationRow, source: 'forward' | 'reverse'): RelatedProduct {
  const entry: RelatedProduct = {
    productId: row.product_id,
    relationType: row.relation_type,
    qty: row.qty,
    productCode: row.product_code,
    erpCode: row.erp_code,
  };
  if (source === 'reverse') entry.source = 'reverse';
  else if (row.note !== null) entry.note = row.note;
  return entry;
}

/**
 * Loads full records (forward relations, derived "used by" entries, channel visibility) in the
 * order of `seqs`. A relation to a product that does not exist (yet) is kept but not shown.
 */
export function readProductsBySeq(db: DatabaseSync, seqs: readonly number[]): ProductRecord[] {
  if (seqs.length === 0) return [];
  const seqList = JSON.stringify(seqs);
  const rowsSql = statement(
    db,
    `SELECT ${PRODUCT_ROW_COLUMNS} FROM products WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  // Arrays rather than node:sqlite's row objects of some 50 properties: 100 records are built in
  // 0.64 ms instead of 0.87 ms.
  rowsSql.setReturnArrays(true);
  const rows = rowsSql.all(seqList) as unknown as ProductRow[];
  const bySeq = new Map<number, ProductRecord>();
  for (const row of rows) bySeq.set(row[AT.seq] as number, toRecord(row));
  const byId = new Map<string, ProductRecord>();
  for (const record of bySeq.values()) byId.set(record.id, record);

  const visibility = statement(
    db,
    `SELECT v.product_seq AS owner, c.slug, v.visible FROM product_channel_visibility v
     JOIN web_channels c ON c.id = v.channel_id
     WHERE v.product_seq IN (SELECT value FROM json_each(?))`,
  ).all(seqList) as Array<{ owner: number; slug: string; visible: number }>;
  for (const row of visibility) {
    const record = bySeq.get(row.owner);
    if (record !== undefined) record.webVisibility[row.slug] = row.visible === 1;
  }

  const forward = statement(
    db,
    `SELECT r.product_seq AS owner, r.related_id AS product_id, r.relation_type, r.qty, r.note,
            t.product_code, t.erp_code
     FROM product_relations r JOIN products t ON t.id = r.related_id
     WHERE r.product_seq IN (SELECT value FROM json_each(?))
     ORDER BY r.product_seq, r.position`,
  ).all(seqList) as unknown as RelationRow[];
  for (const row of forward) bySeq.get(row.owner as number)?.relatedProducts.push(relation(row, 'forward'));

  const reverse = statement(
    db,
    `SELECT r.related_id AS owner, s.id AS product_id, r.relation_type, r.qty, NULL AS note,
            s.product_code, s.erp_code
     FROM product_relations r JOIN products s ON s.seq = r.product_seq
     WHERE r.related_id IN (SELECT value FROM json_each(?))
     ORDER BY s.seq, r.position`,
  ).all(JSON.stringify([...byId.keys()])) as unknown as RelationRow[];
  for (const row of reverse) byId.get(row.owner as string)?.relatedProducts.push(relation(row, 'reverse'));

  const ordered: ProductRecord[] = [];
  for (const seq of seqs) {
    const record = bySeq.get(seq);
    if (record !== undefined) ordered.push(record);
  }
  return ordered;
}
