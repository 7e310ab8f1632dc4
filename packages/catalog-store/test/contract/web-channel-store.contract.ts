import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';

export function webChannelStoreContract(factory: RecordStoreFactory): void {
  describe('WebChannelStore', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    it('registers kebab-case slugs once each', async () => {
      await handle.store.webChannels.create({ slug: 'main-site', name: 'Main site' });
      await expect(handle.store.webChannels.create({ slug: 'main-site' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(handle.store.webChannels.create({ slug: 'Main_Site' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      expect((await handle.store.webChannels.list()).map((c) => c.slug)).toEqual(['main-site']);
    });

    it('refuses a name another channel has, in any letter case, on create and on rename; a channel keeps its own', async () => {
      await handle.store.webChannels.create({ slug: 'eu-shop', name: 'EU shop' });
      await handle.store.webChannels.create({ slug: 'uk-shop', name: 'UK shop' });
      for (const write of [
        () => handle.store.webChannels.create({ slug: 'eu-shop-2', name: 'eu SHOP' }),
        () => handle.store.webChannels.rename('uk-shop', 'EU Shop'),
      ]) {
        const error = await write().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('name');
      }
      expect(await handle.store.webChannels.rename('eu-shop', 'EU Shop')).toMatchObject({ name: 'EU Shop' });
      expect((await handle.store.webChannels.list()).map((c) => c.name)).toEqual(['EU Shop', 'UK shop']);
    });

    it('renames a channel without changing its slug', async () => {
      await handle.store.webChannels.create({ slug: 'outlet' });
      expect(await handle.store.webChannels.rename('outlet', 'Outlet store')).toMatchObject({
        slug: 'outlet',
        name: 'Outlet store',
      });
    });
  });
}
