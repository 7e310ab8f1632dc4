-- The measurement behind "Search on PostgreSQL" in the store README: the textbook full-text design
-- (a `simple` tsvector with a GIN index, a B-tree for the sort column) on the generated catalogue,
-- for the query shapes the embedded engine plans specially. Load a catalogue's text columns into an
-- empty database first, for example from an embedded one at 1M products:
--
--   psql -c "CREATE TABLE products (seq bigint PRIMARY KEY, id text, name text, description text,
--            product_code text, erp_code text, department text, brand_name text, archived boolean)"
--   sqlite3 -csv data/catalog.sqlite "SELECT seq, id, name, description, product_code, erp_code,
--            department, brand_name, CASE archived WHEN 1 THEN 't' ELSE 'f' END FROM products" |
--     psql -c "COPY products FROM STDIN WITH (FORMAT csv)"
--   psql -f bench/postgres-fulltext-probe.sql
SET maintenance_work_mem = '512MB';
ALTER TABLE products ADD COLUMN IF NOT EXISTS doc tsvector GENERATED ALWAYS AS (to_tsvector('simple',
  coalesce(name, '') || ' ' || coalesce(description, '') || ' ' || coalesce(product_code, '') || ' ' ||
  coalesce(erp_code, ''))) STORED;
CREATE INDEX IF NOT EXISTS products_doc ON products USING gin (doc);
CREATE INDEX IF NOT EXISTS products_department ON products (lower(department), seq);
ANALYZE products;
\timing on
\o /dev/null
-- One-term prefix, sorted by a category-like column, first page (run twice: cold, then warm).
SELECT seq FROM products WHERE doc @@ to_tsquery('simple', 'thermostat:*') AND NOT archived
  ORDER BY lower(department), seq LIMIT 20;
SELECT seq FROM products WHERE doc @@ to_tsquery('simple', 'thermostat:*') AND NOT archived
  ORDER BY lower(department), seq LIMIT 20;
SELECT seq FROM products WHERE doc @@ to_tsquery('simple', 'thermostat:*') AND NOT archived
  ORDER BY lower(department) DESC, seq DESC LIMIT 20;
-- Ranked two-term query, first page.
SELECT seq FROM products, to_tsquery('simple', 'copper & charger') q WHERE doc @@ q AND NOT archived
  ORDER BY ts_rank(doc, q) DESC, seq LIMIT 20;
SELECT seq FROM products, to_tsquery('simple', 'copper & charger') q WHERE doc @@ q AND NOT archived
  ORDER BY ts_rank(doc, q) DESC, seq LIMIT 20;
-- Brand counts over a one-term match (the aggregations of spec 4.1).
SELECT brand_name, count(*) FROM products WHERE doc @@ to_tsquery('simple', 'copper') AND NOT archived
  GROUP BY brand_name;
SELECT brand_name, count(*) FROM products WHERE doc @@ to_tsquery('simple', 'copper') AND NOT archived
  GROUP BY brand_name;
-- The capped total (count up to 10,001).
SELECT count(*) FROM (SELECT 1 FROM products WHERE doc @@ to_tsquery('simple', 'thermostat:*')
  AND NOT archived LIMIT 10001) t;
