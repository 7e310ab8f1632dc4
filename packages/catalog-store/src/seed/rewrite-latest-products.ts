import type { RecordStore } from '../ports/catalog-store.ts';
import { brandCount, type CatalogueSpec, generateProduct } from './generate-catalogue.ts';
import { seedNumber } from './prng.ts';

/**
 * Writes the last `count` products of the generated catalogue again, in one `upsertMany`: they take
 * a newer updatedAt than the rest, as the next run of an ERP feed would give them. A catalogue
 * loaded into an empty store in one transaction has a single updatedAt for every product; the
 * benchmarks' incremental-sync queries ("updated after the previous run") need a newest batch.
 */
export async function rewriteLatestProducts(
  store: RecordStore,
  spec: CatalogueSpec,
  count: number,
): Promise<void> {
  const seed = seedNumber(spec.seed ?? 'demo');
  const brands = brandCount(spec.products);
  const inputs = [];
  for (let index = Math.max(0, spec.products - count); index < spec.products; index += 1) {
    inputs.push(generateProduct(seed, index, brands));
  }
  await store.products.upsertMany(inputs);
}
