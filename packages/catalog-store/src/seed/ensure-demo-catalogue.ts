import type { RecordStore } from '../ports/catalog-store.ts';
import { type CatalogueSpec, DEMO_WEB_CHANNELS, generateProductBatches } from './generate-catalogue.ts';

/** Generated products per batch: what is held in memory at once, whatever the catalogue's size. */
const BATCH = 10_000;

/**
 * First start: loads the generated demo catalogue in one transaction, only when the catalogue has
 * no product. Two processes starting together cannot both load it. Returns whether it loaded.
 */
export async function ensureDemoCatalogue(store: RecordStore, spec: CatalogueSpec): Promise<boolean> {
  if ((await store.products.count()) > 0) return false;
  return store.loadIfEmpty({
    webChannels: [...DEMO_WEB_CHANNELS],
    brands: [],
    products: generateProductBatches(spec, BATCH),
  });
}
