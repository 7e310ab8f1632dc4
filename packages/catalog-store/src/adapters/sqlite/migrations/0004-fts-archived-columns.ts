import type { Migration } from '../../migration.ts';

const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'`;
const TEXT = ['name', 'description', 'product_code', 'erp_code'] as const;
const COLUMNS = [...TEXT, ...TEXT.map((column) => `archived_${column}`)].join(', ');

/** A product's text in the live columns when it is live, in the archived_ ones when archived. */
function values(row: 'new.' | 'old.' | ''): string[] {
  const live = TEXT.map((column) => `iif(${row}archived = 0, ${row}${column}, NULL)`);
  const archived = TEXT.map((column) => `iif(${row}archived = 0, NULL, ${row}${column})`);
  return [...live, ...archived];
}
const SOURCE_COLUMNS = values('')
  .map((value, i) => `${value} AS ${COLUMNS.split(', ')[i]}`)
  .join(', ');

/**
 * Replaces the archived token of migration 3 by two sets of text columns: a live product's text is
 * indexed in name, description, product_code and erp_code, an archived product's in the same
 * columns prefixed archived_. A live-only text match is then a column filter
 * (`{name description product_code erp_code} : (…)`) instead of `… NOT {archived} : "1"`, which
 * walked the "1" doclist (every archived product and every text "1") against each match: counting
 * 2,200 live matches at 20,000 products took about 0.22 ms instead of 0.4 ms. The index reads its
 * content through the view product_fts_source (same rowid, same columns), so `rebuild` and
 * `integrity-check` keep working. Rebuilding reads every product once.
 *
 * product_fts_terms lists the index's terms (fts5vocab): a search turns a prefix term that stands
 * for a few terms into an OR of them (search/term-expansions.ts).
 */
export const ftsArchivedColumns: Migration = {
  version: 4,
  name: 'live and archived product text in separate full-text columns, term list',
  sql: `
DROP TRIGGER products_fts_insert;
DROP TRIGGER products_fts_delete;
DROP TRIGGER products_fts_update;
DROP TABLE product_fts;

CREATE VIEW product_fts_source AS SELECT seq, ${SOURCE_COLUMNS} FROM products;
CREATE VIRTUAL TABLE product_fts USING fts5(${COLUMNS}, content = 'product_fts_source', content_rowid = 'seq', ${TOKENIZER});
INSERT INTO product_fts (product_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE product_fts_terms USING fts5vocab(product_fts, 'row');

CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
  INSERT INTO product_fts (rowid, ${COLUMNS}) VALUES (new.seq, ${values('new.').join(', ')});
END;
CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
  INSERT INTO product_fts (product_fts, rowid, ${COLUMNS}) VALUES ('delete', old.seq, ${values('old.').join(', ')});
END;
CREATE TRIGGER products_fts_update AFTER UPDATE OF ${TEXT.join(', ')}, archived ON products
WHEN old.name IS NOT new.name OR old.description IS NOT new.description
  OR old.product_code IS NOT new.product_code OR old.erp_code IS NOT new.erp_code
  OR old.archived IS NOT new.archived
BEGIN
  INSERT INTO product_fts (product_fts, rowid, ${COLUMNS}) VALUES ('delete', old.seq, ${values('old.').join(', ')});
  INSERT INTO product_fts (rowid, ${COLUMNS}) VALUES (new.seq, ${values('new.').join(', ')});
END;
`,
};
