// `pnpm bench` (bulk-load part, issue 14): seed and import of the generated catalogue into an empty
// database through ProductStore.bulkLoadAll, in products per second. BENCH_PRODUCTS=100000,1000000 sets
// the sizes (default 100000; 1M only when listed). Same-run baseline: the per-product write path
// (upsertMany in transactions of 1,000, the seed path before bulkLoad) on the first
// BASELINE_PRODUCTS records of the same generated catalogue, in an empty database. Results go to
// .bench/bulk-load-results.json for scripts/performance-report.mjs. Every database is a fresh temporary
// directory, deleted afterwards: a load is only measured from empty.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { type Figure, figure, writeBenchResults } from '@catalog/bench-results';
import { openSqliteCatalogStore } from '../../catalog-search/src/engines/index.ts';
import { type CatalogStore, catalogDatabasePath, importProducts, seedCatalogue } from '../src/index.ts';
import { DEMO_WEB_CHANNELS, generateProductBatches } from '../src/seed/generate-catalogue.ts';

const SIZES = (process.env.BENCH_PRODUCTS ?? '100000').split(',').map(Number);
const BASELINE_PRODUCTS = Number(process.env.BENCH_LOAD_BASELINE_PRODUCTS ?? 20_000);
const SEED = 'bench-load';
const GOAL_PER_SECOND = 10_000;

const figures: Figure[] = [];

/** An empty catalogue in a fresh directory; `work` gets the store and the database path. */
async function inEmptyStore<T>(work: (store: CatalogStore, databasePath: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bulk-load-'));
  const databasePath = catalogDatabasePath(dir);
  const store = openSqliteCatalogStore({ databasePath, searchWorkers: 1 });
  try {
    return await work(store, databasePath);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fileMegabytes = (databasePath: string) =>
  ['', '-wal'].reduce((sum, suffix) => {
    try {
      return sum + statSync(databasePath + suffix).size / 1e6;
    } catch {
      return sum;
    }
  }, 0);

/** The previous seed path: one upsertMany per 1,000 products. */
async function perProductRate(products: number): Promise<number> {
  return inEmptyStore(async (store) => {
    for (const channel of DEMO_WEB_CHANNELS) await store.webChannels.create(channel);
    const started = performance.now();
    for (const batch of generateProductBatches({ products, seed: SEED }, 1000)) {
      await store.products.upsertMany(batch);
    }
    await store.compactSearchIndex();
    return products / ((performance.now() - started) / 1000);
  });
}

async function seedRun(products: number) {
  return inEmptyStore(async (store, databasePath) => {
    const started = performance.now();
    await seedCatalogue(store, { products, seed: SEED });
    const seconds = (performance.now() - started) / 1000;
    return { seconds, megabytes: fileMegabytes(databasePath) };
  });
}

async function writeNdjson(products: number, file: string): Promise<void> {
  const out = createWriteStream(file);
  for (const batch of generateProductBatches({ products, seed: SEED }, 10_000)) {
    if (!out.write(`${batch.map((product) => JSON.stringify(product)).join('\n')}\n`)) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  out.end();
  await finished(out);
}

/** `pnpm catalog import`'s path: validate the whole file, then write it in bulk-loaded batches. */
async function importRun(products: number) {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bulk-import-'));
  const file = join(dir, 'products.ndjson');
  try {
    await writeNdjson(products, file);
    return await inEmptyStore(async (store) => {
      for (const channel of DEMO_WEB_CHANNELS) await store.webChannels.create(channel);
      const started = performance.now();
      const report = await importProducts(store, file);
      if (report.problemCount > 0 || report.failedBatch !== undefined) throw new Error('the import failed');
      return { seconds: (performance.now() - started) / 1000 };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const baselineCount = Math.min(BASELINE_PRODUCTS, ...SIZES);
process.stderr.write(`bulk load: baseline, per-product path, ${baselineCount} products\n`);
const baseline = await perProductRate(baselineCount);
const lines: string[] = [`per-product path (${baselineCount} products): ${Math.round(baseline)} products/s`];

for (const products of SIZES) {
  const group = `${products.toLocaleString('en')} products`;
  process.stderr.write(`bulk load: seed ${products}\n`);
  const seeded = await seedRun(products);
  process.stderr.write(`bulk load: import ${products}\n`);
  const imported = await importRun(products);
  const seedRate = products / seeded.seconds;
  const importRate = products / imported.seconds;
  figures.push(
    figure(
      'seed (bulkLoadAll of batches of 10,000: one transaction into the empty catalogue)',
      seedRate,
      'products/s',
      { group, baseline },
    ),
    figure(
      'import (NDJSON validated, then bulkLoadAll of batches of 5,000: one transaction)',
      importRate,
      'products/s',
      { group, baseline },
    ),
    figure('seed wall time', seeded.seconds, 's', { group }),
    figure('import wall time (validation pass included)', imported.seconds, 's', { group }),
    figure('database file after seed (with its WAL)', seeded.megabytes, 'MB', { group }),
  );
  lines.push(
    `${group}: seed ${Math.round(seedRate)}/s (${seeded.seconds.toFixed(1)} s, ${Math.round(seeded.megabytes)} MB), import ${Math.round(importRate)}/s (${imported.seconds.toFixed(1)} s)`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);

writeBenchResults(new URL('../.bench/bulk-load-results.json', import.meta.url), {
  part: 'load',
  title: 'Bulk load of the generated catalogue into an empty database (packages/catalog-store)',
  command: `BENCH_PRODUCTS=${SIZES.join(',')} pnpm --filter @catalog/store run bench:load`,
  parameters: {
    products: SIZES.join(','),
    seed: SEED,
    baselineProducts: baselineCount,
    goalProductsPerSecond: GOAL_PER_SECOND,
  },
  figures,
  notes: [
    'Seed: seedCatalogue (generate, check against the contract, ProductStore.bulkLoadAll of batches of 10,000, compact the full-text index), from an empty database. Import: importProducts of the same catalogue written as NDJSON (every line checked first, then bulkLoadAll of batches of 5,000, then compaction); writing the file is not timed.',
    'Into an empty catalogue bulkLoadAll is one transaction: rows inserted with the secondary indexes and insert triggers dropped, each index built once after the rows, full-text rows, facets and search documents derived once, WAL checkpointed and truncated after the commit (packages/catalog-store README, Bulk load).',
    `Baseline: the per-product path (upsertMany per 1,000, per-row triggers), the seed path before bulkLoad, on the first ${baselineCount.toLocaleString('en')} products of the same catalogue in an empty database, measured first in the same run. It is measured on fewer products than the loads (an empty database's smaller indexes flatter it slightly), so the ratio understates the gain.`,
  ],
});
