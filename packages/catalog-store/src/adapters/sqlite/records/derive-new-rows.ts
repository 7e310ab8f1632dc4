// What the insert triggers (insert-triggers.ts) would have done, row by row, for the products a load
// inserted with them suspended: the products with seq in [?1, ?2], and nothing else.

const FTS_TEXT = ['name', 'description', 'product_code', 'erp_code'] as const;
const FTS_COLUMNS = [...FTS_TEXT, ...FTS_TEXT.map((column) => `archived_${column}`)].join(', ');
const FACETS = [
  ['brandName', 'brand_name'],
  ['category', 'category'],
  ['department', 'department'],
  ['stockType', 'stock_type'],
] as const;
const FACET_COLUMNS = FACETS.map(([, column]) => column);

const NEW_ROWS = 'seq BETWEEN ?1 AND ?2';
/** Products that an inserted relation row names, and products whose relations name an inserted product. */
const RELATION_ENDS = `
  SELECT p.seq FROM product_relations r JOIN products p ON p.id = r.related_id WHERE r.product_seq BETWEEN ?1 AND ?2
  UNION
  SELECT r.product_seq FROM products p JOIN product_relations r ON r.related_id = p.id WHERE p.seq BETWEEN ?1 AND ?2`;

/** products_fts_insert: the text through the same view the index reads (live or archived columns). */
export const INDEX_NEW_TEXT = `INSERT INTO product_fts (rowid, ${FTS_COLUMNS})
  SELECT seq, ${FTS_COLUMNS} FROM product_fts_source WHERE ${NEW_ROWS} ORDER BY seq`;

/**
 * products_facets_insert: one more product per facet value. products_facet_combination_insert: new
 * combinations in order of first appearance, then each product's combination stamped with the next
 * clock value, in seq order.
 */
export const COUNT_NEW_FACETS: readonly string[] = [
  ...FACETS.map(
    ([facet, column]) => `INSERT INTO facet_counts (facet, value, archived, n)
      SELECT '${facet}', ${column} COLLATE BINARY, archived, count(*) FROM products WHERE ${NEW_ROWS}
      GROUP BY ${column} COLLATE BINARY, archived
      ON CONFLICT DO UPDATE SET n = n + excluded.n`,
  ),
  `INSERT INTO facet_combinations (${FACET_COLUMNS.join(', ')})
    SELECT ${FACET_COLUMNS.join(', ')} FROM products WHERE ${NEW_ROWS} ORDER BY seq ON CONFLICT DO NOTHING`,
  `INSERT INTO product_facets (seq, combination, changed)
    SELECT p.seq, c.id, (SELECT n FROM product_facets_clock) + row_number() OVER (ORDER BY p.seq)
    FROM products p JOIN facet_combinations c ON ${FACET_COLUMNS.map((column) => `c.${column} = p.${column} COLLATE BINARY`).join(' AND ')}
    WHERE p.${NEW_ROWS}`,
  `UPDATE product_facets_clock SET n = n + (SELECT count(*) FROM products WHERE ${NEW_ROWS})`,
];

/**
 * products_document_insert and product_relations_document_insert: the new products, the targets of
 * their relations and the owners of relations naming them lose their documents, which the writer
 * rebuilds before the commit (transaction.ts).
 */
export const QUEUE_NEW_DOCUMENTS: readonly string[] = [
  `DELETE FROM product_documents WHERE seq IN (${RELATION_ENDS})`,
  `INSERT INTO product_documents_stale (seq) SELECT seq FROM products WHERE ${NEW_ROWS} ON CONFLICT DO NOTHING`,
  `INSERT INTO product_documents_stale (seq) SELECT seq FROM (${RELATION_ENDS}) WHERE true ON CONFLICT DO NOTHING`,
];

/** products_feed_insert: one change-feed entry per new product, in seq order as they were inserted. */
export const APPEND_NEW_CHANGES = `INSERT INTO change_feed (entity, entity_id, changed_at)
  SELECT 'product', id, updated_at FROM products WHERE ${NEW_ROWS} ORDER BY seq`;

/**
 * write-product.ts's relation bump for new products: every product they relate to takes the write's
 * updatedAt (?3; its "used by" entries changed). Run with the update triggers in place, which queue
 * its document.
 */
export const BUMP_RELATION_TARGETS = `UPDATE products SET updated_at = ?3, version = version + 1
  WHERE id IN (SELECT related_id FROM product_relations WHERE product_seq BETWEEN ?1 AND ?2) AND updated_at < ?3`;
