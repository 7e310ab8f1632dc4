import type { Migration } from '../../migration.ts';

const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'`;
const COLUMNS = 'name, description, product_code, erp_code, archived';
const values = (row: 'new' | 'old') =>
  COLUMNS.split(', ')
    .map((column) => `${row}.${column}`)
    .join(', ');

/**
 * Adds `archived` (the token "0" or "1") to the product full-text index, so the capped count of a
 * text query excludes archived products inside FTS5 (`... NOT {archived} : "1"`) instead of
 * joining every match to its wide products row: 0.3 ms instead of 1.2 ms for 2,200 matches at
 * 20,000 products. Text matches must therefore name their columns (search-terms.ts), or a term
 * "1" would match every archived product. Rebuilding the index reads every product once.
 */
export const ftsArchivedColumn: Migration = {
  version: 3,
  name: 'archived state in the product full-text index',
  sql: `
DROP TRIGGER products_fts_insert;
DROP TRIGGER products_fts_delete;
DROP TRIGGER products_fts_update;
DROP TABLE product_fts;

CREATE VIRTUAL TABLE product_fts USING fts5(${COLUMNS}, content = 'products', content_rowid = 'seq', ${TOKENIZER});
INSERT INTO product_fts (product_fts) VALUES ('rebuild');

CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
  INSERT INTO product_fts (rowid, ${COLUMNS}) VALUES (new.seq, ${values('new')});
END;
CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
  INSERT INTO product_fts (product_fts, rowid, ${COLUMNS}) VALUES ('delete', old.seq, ${values('old')});
END;
CREATE TRIGGER products_fts_update AFTER UPDATE OF ${COLUMNS} ON products
WHEN old.name IS NOT new.name OR old.description IS NOT new.description
  OR old.product_code IS NOT new.product_code OR old.erp_code IS NOT new.erp_code
  OR old.archived IS NOT new.archived
BEGIN
  INSERT INTO product_fts (product_fts, rowid, ${COLUMNS}) VALUES ('delete', old.seq, ${values('old')});
  INSERT INTO product_fts (rowid, ${COLUMNS}) VALUES (new.seq, ${values('new')});
END;
`,
};
