import { type StorageLocation, seedCatalogue } from '@catalog/store';
import { openCatalog } from '../open-catalog.ts';
import { OPERATOR_AUDIT } from '../operator-audit.ts';
import type { Output } from '../output.ts';
import { progressBar } from '../progress-bar.ts';

export interface SeedCommandOptions {
  location: StorageLocation;
  products: number;
  seed: string;
}

export async function runSeed(options: SeedCommandOptions, output: Output): Promise<void> {
  const store = await openCatalog(options.location);
  const bar = progressBar(output, 'seed');
  const started = performance.now();
  try {
    const report = await seedCatalogue(store, {
      products: options.products,
      seed: options.seed,
      onProgress: ({ written, total }) => bar.update(written, total, `${written}/${total} products`),
    });
    bar.stop();
    await store.audit.append({
      ...OPERATOR_AUDIT,
      action: 'catalogue.seed',
      target: { type: 'catalogue', id: null },
      details: {
        products: options.products,
        seed: options.seed,
        created: report.created,
        updated: report.updated,
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    output.out(
      `seeded ${options.products} products (seed "${options.seed}"): ${report.created} created, ${report.updated} updated in ${seconds} s`,
    );
  } finally {
    bar.stop();
    await store.close();
  }
}
