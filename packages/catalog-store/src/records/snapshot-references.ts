import type { CatalogueSnapshot } from '../ports/catalog-store.ts';
import { insertBrand } from './brand-records.ts';
import { type RecordWork, rows } from './record-work.ts';
import { insertWebChannel } from './web-channel-records.ts';

/**
 * The channels and brands of a snapshot loaded into an empty catalogue, stamped `at`, before its
 * products: those already there (by slug, by name) are kept as they are, so is a second listing.
 */
export function* insertSnapshotReferences(snapshot: CatalogueSnapshot, at: number): RecordWork<void> {
  const channels = yield* rows<{ slug: string }>('SELECT slug FROM web_channels');
  const registered = new Set(channels.map((row) => row.slug));
  for (const channel of snapshot.webChannels) {
    if (registered.has(channel.slug)) continue;
    yield* insertWebChannel(channel, at);
    registered.add(channel.slug);
  }
  const brands = yield* rows<{ name: string }>('SELECT name FROM brands');
  const named = new Set(brands.map((row) => row.name));
  for (const brand of snapshot.brands) {
    if (named.has(brand.name.trim())) continue;
    named.add((yield* insertBrand(brand, at)).name);
  }
}
