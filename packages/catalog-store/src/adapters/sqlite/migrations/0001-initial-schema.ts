import type { Migration } from '../../migration.ts';

const TOKENIZER = `tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'`;

/**
 * Indexes that let every sort column be walked in (key, seq) order; see notes/search.md. By name
 * suffix and column; migration 7 rebuilds them with `archived`.
 */
export const SORT_INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['name', 'name'],
  ['code', 'product_code'],
  ['brand', 'brand_name'],
  ['price', 'price_sort'],
  ['category', 'category'],
  ['department', 'department'],
  ['sub_department', 'sub_department'],
  ['supplier_cost', 'supplier_cost_sort'],
  ['created_at', 'created_at'],
  ['updated_at', 'updated_at'],
];

export const initialSchema: Migration = {
  version: 1,
  name: 'initial schema',
  sql: `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE web_channels (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE brands (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL UNIQUE,
  slug TEXT NOT NULL UNIQUE,
  archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE VIRTUAL TABLE brand_fts USING fts5(name, slug, content = 'brands', content_rowid = 'seq', ${TOKENIZER});
CREATE TRIGGER brands_fts_insert AFTER INSERT ON brands BEGIN
  INSERT INTO brand_fts (rowid, name, slug) VALUES (new.seq, new.name, new.slug);
END;
CREATE TRIGGER brands_fts_delete AFTER DELETE ON brands BEGIN
  INSERT INTO brand_fts (brand_fts, rowid, name, slug) VALUES ('delete', old.seq, old.name, old.slug);
END;
CREATE TRIGGER brands_fts_update AFTER UPDATE OF name, slug ON brands BEGIN
  INSERT INTO brand_fts (brand_fts, rowid, name, slug) VALUES ('delete', old.seq, old.name, old.slug);
  INSERT INTO brand_fts (rowid, name, slug) VALUES (new.seq, new.name, new.slug);
END;

CREATE TABLE products (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  product_code TEXT NOT NULL COLLATE NOCASE,
  product_code_key TEXT NOT NULL,
  erp_code TEXT NOT NULL DEFAULT '',
  erp_code_key TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  brand_seq INTEGER REFERENCES brands (seq),
  brand_name TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
  brand_slug TEXT NOT NULL DEFAULT '',
  range TEXT NOT NULL DEFAULT '',
  category TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
  department TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
  sub_department TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
  stock_type TEXT NOT NULL DEFAULT '',
  catalogue TEXT NOT NULL DEFAULT '',
  notes TEXT NOT NULL DEFAULT '',
  colour TEXT NOT NULL DEFAULT '',
  barcode TEXT NOT NULL DEFAULT '',
  weight_unit TEXT NOT NULL DEFAULT '',
  alt_supplier_code TEXT NOT NULL DEFAULT '',
  alt_supplier_code2 TEXT NOT NULL DEFAULT '',
  web_hierarchy TEXT NOT NULL DEFAULT '',
  type TEXT NOT NULL DEFAULT '',
  sub_type TEXT NOT NULL DEFAULT '',
  sub_sub_type TEXT NOT NULL DEFAULT '',
  retail_range TEXT NOT NULL DEFAULT '',
  internal_note TEXT NOT NULL DEFAULT '',
  price REAL,
  retail_price REAL,
  supplier_cost REAL,
  cost_price REAL,
  margin_percent REAL,
  length REAL NOT NULL DEFAULT 0,
  height REAL NOT NULL DEFAULT 0,
  width REAL NOT NULL DEFAULT 0,
  weight REAL NOT NULL DEFAULT 0,
  image_url TEXT,
  images TEXT NOT NULL DEFAULT '[]',
  documents TEXT NOT NULL DEFAULT '[]',
  spares TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'discontinued')),
  archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
  display_on_web INTEGER CHECK (display_on_web IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- Unset prices sort first ascending; a non-null key keeps keyset comparisons total.
  price_sort REAL GENERATED ALWAYS AS (coalesce(price, -1e300)) VIRTUAL,
  supplier_cost_sort REAL GENERATED ALWAYS AS (coalesce(supplier_cost, -1e300)) VIRTUAL
) STRICT;

${SORT_INDEXES.map(([name, column]) => `CREATE INDEX products_sort_${name} ON products (${column}, seq);`).join('\n')}
CREATE INDEX products_product_code_key ON products (product_code_key);
CREATE INDEX products_erp_code_key ON products (erp_code_key);
CREATE INDEX products_barcode ON products (barcode);
CREATE INDEX products_brand_seq ON products (brand_seq);
CREATE INDEX products_status ON products (status, seq);

CREATE VIRTUAL TABLE product_fts USING fts5(
  name, description, product_code, erp_code, content = 'products', content_rowid = 'seq', ${TOKENIZER}
);
CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
  INSERT INTO product_fts (rowid, name, description, product_code, erp_code)
  VALUES (new.seq, new.name, new.description, new.product_code, new.erp_code);
END;
CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
  INSERT INTO product_fts (product_fts, rowid, name, description, product_code, erp_code)
  VALUES ('delete', old.seq, old.name, old.description, old.product_code, old.erp_code);
END;
CREATE TRIGGER products_fts_update AFTER UPDATE OF name, description, product_code, erp_code ON products
WHEN old.name IS NOT new.name OR old.description IS NOT new.description
  OR old.product_code IS NOT new.product_code OR old.erp_code IS NOT new.erp_code
BEGIN
  INSERT INTO product_fts (product_fts, rowid, name, description, product_code, erp_code)
  VALUES ('delete', old.seq, old.name, old.description, old.product_code, old.erp_code);
  INSERT INTO product_fts (rowid, name, description, product_code, erp_code)
  VALUES (new.seq, new.name, new.description, new.product_code, new.erp_code);
END;

-- Only forward relations are stored; "used by" entries are derived from related_id.
CREATE TABLE product_relations (
  product_seq INTEGER NOT NULL REFERENCES products (seq) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  related_id TEXT NOT NULL,
  relation_type TEXT NOT NULL CHECK (relation_type IN ('required', 'optional', 'substitute')),
  qty REAL NOT NULL,
  note TEXT,
  PRIMARY KEY (product_seq, position)
) STRICT, WITHOUT ROWID;
CREATE INDEX product_relations_related ON product_relations (related_id);

CREATE TABLE product_channel_visibility (
  channel_id INTEGER NOT NULL REFERENCES web_channels (id) ON DELETE CASCADE,
  product_seq INTEGER NOT NULL REFERENCES products (seq) ON DELETE CASCADE,
  visible INTEGER NOT NULL CHECK (visible IN (0, 1)),
  PRIMARY KEY (channel_id, product_seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX product_channel_visibility_product ON product_channel_visibility (product_seq);

CREATE TABLE m2m_clients (
  client_id TEXT PRIMARY KEY,
  client_name TEXT NOT NULL,
  description TEXT,
  scopes TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
  created_at INTEGER NOT NULL,
  created_by_user_id TEXT NOT NULL,
  created_by_user_name TEXT NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  usage_count INTEGER NOT NULL DEFAULT 0,
  revoked_at INTEGER,
  revoked_by_user_id TEXT,
  revoked_by_user_name TEXT,
  channel_id INTEGER REFERENCES web_channels (id),
  secret_hash TEXT NOT NULL,
  token_lifetime_seconds INTEGER NOT NULL CHECK (token_lifetime_seconds > 0)
) STRICT;
CREATE INDEX m2m_clients_status ON m2m_clients (status, created_at);

CREATE TABLE admin_users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  groups TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

-- Signs syncTokens; shared by every process that opens this database.
INSERT INTO meta (key, value) VALUES ('sync_token_secret', lower(hex(randomblob(32))));
`,
};
