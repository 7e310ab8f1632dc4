import type pg from 'pg';
import type { ProductRecord } from '../../../model/product.ts';
import { RECORD_COLUMNS } from '../../product-columns.ts';
import { type ProductRow, toRecord } from './product-rows.ts';

export type Queryable = pg.Pool | pg.PoolClient;

// Each record with its channel values, forward relations and derived "used by" entries, in one
// statement: one snapshot, so its parts agree without a transaction, and one round trip. A relation
// to a product that does not exist (yet) is kept but not shown (the inner joins).
const SELECT_RECORDS = `SELECT ${RECORD_COLUMNS.map((column) => `p.${column}`).join(', ')},
  (SELECT coalesce(json_object_agg(c.slug, v.visible ORDER BY c.id), '{}')
     FROM product_channel_visibility v JOIN web_channels c ON c.id = v.channel_id
     WHERE v.product_seq = p.seq) AS web_visibility,
  (SELECT coalesce(json_agg(json_strip_nulls(json_build_object(
       'productId', r.related_id, 'relationType', r.relation_type, 'qty', r.qty,
       'productCode', t.product_code, 'erpCode', t.erp_code, 'note', r.note)) ORDER BY r.position), '[]')
     FROM product_relations r JOIN products t ON t.id = r.related_id
     WHERE r.product_seq = p.seq) AS forward,
  (SELECT coalesce(json_agg(json_build_object(
       'productId', s.id, 'relationType', r.relation_type, 'qty', r.qty,
       'productCode', s.product_code, 'erpCode', s.erp_code, 'source', 'reverse') ORDER BY s.seq, r.position), '[]')
     FROM product_relations r JOIN products s ON s.seq = r.product_seq
     WHERE r.related_id = p.id) AS reverse
  FROM products p`;

/**
 * Full records of the products `condition` selects (an SQL condition on `p`, its values bound as
 * `params`), in seq order, at most `limit` of them.
 */
export async function readProducts(
  db: Queryable,
  condition: string,
  params: readonly unknown[],
  limit?: number,
): Promise<ProductRecord[]> {
  const capped = limit === undefined ? '' : ` LIMIT $${params.length + 1}`;
  const result = await db.query<ProductRow>(
    `${SELECT_RECORDS} WHERE ${condition} ORDER BY p.seq${capped}`,
    limit === undefined ? [...params] : [...params, limit],
  );
  return result.rows.map(toRecord);
}
