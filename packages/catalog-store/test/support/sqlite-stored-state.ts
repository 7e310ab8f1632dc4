import { DatabaseSync } from 'node:sqlite';
import type { CatalogStore } from '../../src/index.ts';
import type { BulkLoadEngine } from '../contract/bulk-load.contract.ts';
import { type SqliteStoreHandle, sqliteStore } from './sqlite-factory.ts';

const SCHEMA_OBJECTS =
  "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('trigger', 'index') ORDER BY name";

/**
 * Every table a product's state is made of on the embedded engine, derived ones included (facet
 * tables, full-text index, stored search documents), with each updatedAt replaced by its rank in
 * the file; the full-text index is checked for integrity after the read.
 */
function tables(databasePath: string) {
  const db = new DatabaseSync(databasePath);
  const all = (sql: string) => db.prepare(sql).all();
  const stamps = (
    all('SELECT DISTINCT updated_at AS t FROM products ORDER BY t') as Array<{ t: number }>
  ).map((row) => row.t);
  const rank = new Map(stamps.map((t, i) => [new Date(t).toISOString(), `stamp-${i}`]));
  const stamp = (t: unknown) => rank.get(new Date(t as number).toISOString()) ?? t;
  const ranked = (text: string) => text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, (iso) => rank.get(iso) ?? iso);
  const result = {
    products: ranked(
      JSON.stringify(
        all(`SELECT * FROM products ORDER BY seq`).map((row) => ({
          ...row,
          created_at: stamp(row.created_at),
          updated_at: stamp(row.updated_at),
        })),
      ),
    ),
    relations: all('SELECT * FROM product_relations ORDER BY product_seq, position'),
    visibility: all('SELECT * FROM product_channel_visibility ORDER BY channel_id, product_seq'),
    brands: all('SELECT seq, name, slug, archived FROM brands ORDER BY seq'),
    facetCounts: all('SELECT * FROM facet_counts WHERE n > 0 ORDER BY facet, value, archived'),
    // Combination ids and clock values are internal numbers handed out in write order, which differs
    // when a batch mixes new and existing products (bulk writes the new ones first): compared by value.
    combinations: all(
      'SELECT brand_name, category, department, stock_type FROM facet_combinations ORDER BY brand_name, category, department, stock_type',
    ),
    productFacets: all(
      `SELECT f.seq, c.brand_name, c.category, c.department, c.stock_type, f.changed <= (SELECT n FROM product_facets_clock) AS ticked
       FROM product_facets f JOIN facet_combinations c ON c.id = f.combination ORDER BY f.seq`,
    ),
    documents: ranked(JSON.stringify(all('SELECT * FROM product_documents ORDER BY seq'))),
    stale: all('SELECT * FROM product_documents_stale'),
    fts: ['drill', 'renamed', 'arrives', 'brass', 'ERP'].map((term) =>
      all(`SELECT rowid FROM product_fts WHERE product_fts MATCH '"${term}"*' ORDER BY rowid`),
    ),
    ftsTerms: all('SELECT term, doc, cnt FROM product_fts_terms ORDER BY term'),
    schema: all(SCHEMA_OBJECTS),
  };
  db.exec("INSERT INTO product_fts (product_fts) VALUES ('integrity-check')");
  db.close();
  return result;
}

/** The search engine's answers: text, sort, facet filter, aggregations and "used by" entries. */
async function searchPages(store: CatalogStore) {
  const queries = [{ q: 'drill' }, { q: 'renamed', sort: 'name' as const }, { brandName: 'Late' }, {}];
  const pages = [];
  for (const query of queries) {
    const page = await store.productSearch.search({ ...query, size: 50, includeAggregations: true });
    pages.push({
      ids: page.products.map((product) => product.id),
      total: page.total,
      aggregations: page.aggregations,
      reverse: page.products.map((product) =>
        product.relatedProducts.filter((entry) => entry.source === 'reverse').map((entry) => entry.productId),
      ),
    });
  }
  return pages;
}

/** The embedded engine under the bulk-load contract. */
export const sqliteBulkLoadEngine: BulkLoadEngine<SqliteStoreHandle> = {
  open: () => sqliteStore(),
  storedState: async (handle) => ({
    tables: tables(handle.databasePath),
    search: await searchPages(handle.store),
  }),
  schemaObjects: async (handle) => {
    const db = new DatabaseSync(handle.databasePath, { readOnly: true });
    try {
      return db.prepare(SCHEMA_OBJECTS).all();
    } finally {
      db.close();
    }
  },
};
