import type { LoadTarget } from '../ports/catalog-store.ts';
import { type CatalogueSpec, DEMO_WEB_CHANNELS, generateProductBatches } from './generate-catalogue.ts';

export interface SeedProgress {
  written: number;
  total: number;
}

export interface SeedOptions extends CatalogueSpec {
  batchSize?: number;
  onProgress?: (progress: SeedProgress) => void;
}

export interface SeedReport {
  created: number;
  updated: number;
}

async function ensureChannels(store: LoadTarget): Promise<void> {
  for (const channel of DEMO_WEB_CHANNELS) {
    if ((await store.webChannels.get(channel.slug)) === undefined) await store.webChannels.create(channel);
  }
}

/** Products per transaction: large enough that the per-batch work of a bulk load hardly counts. */
const DEFAULT_BATCH = 10_000;

/**
 * `pnpm catalog seed`: writes the generated catalogue batch by batch (`ProductStore.bulkLoadAll`:
 * one transaction in all into an empty catalogue, one per batch otherwise), then compacts the
 * search index. Ids are derived from the seed, so running it again updates the same products instead of
 * adding new ones.
 */
export async function seedCatalogue(store: LoadTarget, options: SeedOptions): Promise<SeedReport> {
  await ensureChannels(store);
  let written = 0;
  const report = await store.products.bulkLoadAll(
    generateProductBatches(options, options.batchSize ?? DEFAULT_BATCH),
    {
      onBatch: ({ created, updated }) => {
        written += created + updated;
        options.onProgress?.({ written, total: options.products });
      },
    },
  );
  await store.compactSearchIndex();
  return report;
}
