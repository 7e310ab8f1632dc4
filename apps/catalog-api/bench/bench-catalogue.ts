// The API bench's catalogue: the generated catalogue written with `seedCatalogue` (bulk load, as
// `pnpm catalog seed` does) into a data directory the API then starts on. At 1M products the seed
// takes minutes, so BENCH_DATA_DIR keeps the directory between runs: a catalogue already holding
// N products of the bench's seed is reused.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { catalogDatabasePath, rewriteLatestProducts, seedCatalogue } from '@catalog/store';

const SEED = 'api-bench';

export interface BenchCatalogue {
  dataDir: string;
  databasePath: string;
  /** Seconds the seed took; null when an existing catalogue was reused. */
  seedSeconds: number | null;
  /** Deletes the directory unless BENCH_DATA_DIR keeps it. */
  release: () => void;
}

function productsIn(databasePath: string): number {
  if (!existsSync(databasePath)) return -1;
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM products').get() as { n: number }).n;
  } catch {
    return -1;
  } finally {
    db.close();
  }
}

export async function prepareBenchCatalogue(products: number): Promise<BenchCatalogue> {
  const keepRoot = process.env.BENCH_DATA_DIR;
  const dataDir =
    keepRoot === undefined || keepRoot === ''
      ? mkdtempSync(join(tmpdir(), 'api-bench-'))
      : join(keepRoot, `api-${SEED}-${products}`);
  const databasePath = catalogDatabasePath(dataDir);
  const release = () => {
    if (keepRoot === undefined || keepRoot === '') rmSync(dataDir, { recursive: true, force: true });
  };
  if (productsIn(databasePath) === products) return { dataDir, databasePath, seedSeconds: null, release };
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir }, undefined), {
    searchWorkers: 1,
  });
  const started = performance.now();
  let reported = started;
  let seeded = started;
  try {
    await seedCatalogue(store, {
      products,
      seed: SEED,
      onProgress: ({ written, total }) => {
        if (performance.now() - reported < 10_000) return;
        reported = performance.now();
        process.stderr.write(`api bench: seeded ${written}/${total}\n`);
      },
    });
    seeded = performance.now();
    // One transaction gives every product one updatedAt; "updated after a recent instant" needs
    // a newest batch, as an ERP's next run would write it.
    await rewriteLatestProducts(store, { products, seed: SEED }, 5000);
  } finally {
    await store.close();
  }
  return { dataDir, databasePath, seedSeconds: (seeded - started) / 1000, release };
}
