// The generated catalogue the store's benches search (search-bench.ts, postgres-bench.ts), and where
// they keep its embedded database: one per size under BENCH_DATA_DIR, reused by the next bench or run
// when it already holds that many products.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteCatalogStore } from '../../catalog-search/src/engines/index.ts';
import { catalogDatabasePath, rewriteLatestProducts, seedCatalogue } from '../src/index.ts';

export const SIZES = (process.env.BENCH_PRODUCTS ?? '100000').split(',').map(Number);
export const DATA_ROOT = process.env.BENCH_DATA_DIR ?? join(tmpdir(), 'catalog-bench');
export const SEED = 'bench';

/** Products written again after the load, the newest batch the incremental-sync queries ask for. */
export const LATEST_BATCH = 5000;
/** Products per batch of the seed. */
export const SEED_BATCH = 5000;

/** Whether the catalogue has a newest batch: more than one updatedAt. */
function hasLatestBatch(db: DatabaseSync): boolean {
  return (
    db.prepare('SELECT DISTINCT updated_at FROM products ORDER BY updated_at DESC LIMIT 1 OFFSET 1').get() !==
    undefined
  );
}

/**
 * The embedded catalogue of `products` products in `dir`: reused when it holds that many, else
 * seeded from empty; `seconds` is the seed's (NaN when reused). Either way its newest batch exists.
 */
export async function loadSqliteCatalogue(
  dir: string,
  products: number,
): Promise<{ seconds: number; reused: boolean }> {
  const path = catalogDatabasePath(dir);
  if (existsSync(path)) {
    const db = new DatabaseSync(path, { readOnly: true });
    const n = (db.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n;
    const latest = n > 0 && hasLatestBatch(db);
    db.close();
    if (n === products) {
      if (!latest) {
        const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
        await rewriteLatestProducts(store, { products, seed: SEED }, LATEST_BATCH);
        await store.close();
      }
      return { seconds: Number.NaN, reused: true };
    }
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const store = openSqliteCatalogStore({ databasePath: path, searchWorkers: 1 });
  const started = performance.now();
  let lastReport = started;
  await seedCatalogue(store, {
    products,
    seed: SEED,
    batchSize: SEED_BATCH,
    onProgress: ({ written, total }) => {
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        process.stderr.write(`  loaded ${written}/${total}\n`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  // A load into an empty catalogue gives every product one updatedAt (one transaction).
  await rewriteLatestProducts(store, { products, seed: SEED }, LATEST_BATCH);
  await store.close();
  return { seconds, reused: false };
}
