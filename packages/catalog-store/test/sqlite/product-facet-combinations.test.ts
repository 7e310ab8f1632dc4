import { rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/sqlite/migrate.ts';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations/index.ts';
import { catalogDatabasePath } from '../../src/index.ts';
import { aProduct } from '../../src/testing/index.ts';
import { type SqliteStoreHandle, sqliteStore, tempDataDir } from '../support/sqlite-factory.ts';

/** Products whose facet combination (store migration 5) is not exactly their own facet values. */
function drifted(db: DatabaseSync): unknown[] {
  return db
    .prepare(
      `SELECT p.seq FROM products p
       LEFT JOIN product_facets f ON f.seq = p.seq
       LEFT JOIN facet_combinations c ON c.id = f.combination
       WHERE c.id IS NULL OR c.brand_name IS NOT p.brand_name COLLATE BINARY
         OR c.category IS NOT p.category COLLATE BINARY OR c.department IS NOT p.department COLLATE BINARY
         OR c.stock_type IS NOT p.stock_type
       UNION ALL SELECT f.seq FROM product_facets f WHERE f.seq NOT IN (SELECT seq FROM products)`,
    )
    .all();
}

const clock = (db: DatabaseSync) =>
  (db.prepare('SELECT n FROM product_facets_clock').get() as { n: number }).n;

// Facet counts over text matches read each product's combination from product_facets (through the
// search workers' in-memory copy), so the triggers must keep it exactly in step with products.
describe('product facet combinations', () => {
  let handle: SqliteStoreHandle | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await handle?.dispose();
    handle = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('follow creates, edits, archives, brand renames and deletions, exactly (case included)', async () => {
    handle = await sqliteStore();
    const { products, brands } = handle.store;
    const db = new DatabaseSync(handle.databasePath);
    const a = await products.create(
      aProduct({ brandName: 'Bolt Co', category: 'Tools', stockType: 'Stocked' }),
    );
    const b = await products.create(
      aProduct({ brandName: 'bolt co', category: 'tools', stockType: 'Stocked' }),
    );
    await products.upsertMany([aProduct({ brandName: 'Bolt Co', category: 'Tools' }), aProduct()]);
    expect(drifted(db)).toEqual([]);
    const before = clock(db);
    await products.replace(a.id, { ...aProduct({ id: a.id }), brandName: 'Bolt Co', category: 'TOOLS' });
    await products.archive(b.id);
    const bolt = await brands.getBySlug('bolt-co');
    await brands.update(bolt?.id as string, { name: 'Bolt Company' });
    expect(drifted(db)).toEqual([]);
    expect(clock(db)).toBeGreaterThan(before);
    db.prepare('DELETE FROM products WHERE seq = ?').run(b.seq);
    expect(drifted(db)).toEqual([]);
    const combinations = db.prepare('SELECT brand_name, category FROM facet_combinations').all();
    expect(combinations).toContainEqual({ brand_name: 'bolt co', category: 'tools' });
    expect(combinations).toContainEqual({ brand_name: 'Bolt Company', category: 'TOOLS' });
    db.close();
  });

  it('are filled in for the products already there when the migration runs', () => {
    dir = tempDataDir();
    const db = new DatabaseSync(catalogDatabasePath(dir));
    migrate(db, MIGRATIONS.slice(0, 4));
    const insert = db.prepare(
      `INSERT INTO products (id, product_code, product_code_key, name, brand_name, category, created_at, updated_at)
       VALUES (?, ?, ?, 'Part', ?, ?, 0, 0)`,
    );
    for (const [i, brand, category] of [
      [1, 'Acme', 'Pumps'],
      [2, 'acme', 'Pumps'],
      [3, 'Acme', 'Pumps'],
    ] as const) {
      insert.run(`id-${i}`, `P-${i}`, `p${i}`, brand, category);
    }
    migrate(db);
    expect(drifted(db)).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM facet_combinations').get()).toEqual({ n: 2 });
    db.close();
  });
});
