import type pg from 'pg';
import type { CatalogueSnapshot } from '../../../ports/catalog-store.ts';
import { insertBrand } from '../../../records/brand-records.ts';
import { insertWebChannel } from '../../../records/web-channel-records.ts';
import { inWriteTransaction } from '../transaction.ts';
import { catalogueIsEmpty, loadEmptyCatalogue } from './load-empty-catalogue.ts';
import { runInWriteTransaction } from './postgres-record-engine.ts';

/**
 * The snapshot's channels, brands and products in one transaction, only when the catalogue has no
 * product once the write clock is taken: processes racing at first start take turns on that lock,
 * and each after the first finds the products the first committed. Channels and brands already
 * there are kept. Returns whether it loaded.
 */
export async function loadIfEmpty(pool: pg.Pool, snapshot: CatalogueSnapshot): Promise<boolean> {
  return inWriteTransaction(pool, async (client, ts) => {
    if (!(await catalogueIsEmpty(client))) return false;
    const channels = await client.query<{ slug: string }>('SELECT slug FROM web_channels');
    const registered = new Set(channels.rows.map((row) => row.slug));
    for (const channel of snapshot.webChannels) {
      if (registered.has(channel.slug)) continue;
      await runInWriteTransaction(client, ts, insertWebChannel(channel, ts));
      registered.add(channel.slug);
    }
    const brands = await client.query<{ name: string }>('SELECT name FROM brands');
    const named = new Set(brands.rows.map((row) => row.name));
    for (const brand of snapshot.brands) {
      if (named.has(brand.name.trim())) continue;
      named.add((await runInWriteTransaction(client, ts, insertBrand(brand, ts))).name);
    }
    await loadEmptyCatalogue(client, ts, snapshot.products, {});
    return true;
  });
}
