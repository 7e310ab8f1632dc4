import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, PreconditionFailedError, registryVersion } from '../../src/index.ts';
import type { AuditContext } from '../../src/model/audit-event.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';

const audit: AuditContext = {
  actor: { kind: 'admin', userId: 'u-1', email: 'admin@example.com' },
  sourceIp: '127.0.0.1',
  requestId: 'r-1',
};

const aClient = (clientId: string) => ({
  clientId,
  clientName: 'Shop sync',
  scopes: ['products.read' as const],
  createdBy: { userId: 'u-1', userName: 'Admin' },
  expiresAt: null,
  secretHash: 'hash',
  tokenLifetimeSeconds: 3600,
});

/** Rejects with a PreconditionFailedError naming the version the record has now. */
async function expectStale(write: Promise<unknown>, currentVersion: number): Promise<void> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PreconditionFailedError);
  expect((error as PreconditionFailedError).currentVersion).toBe(currentVersion);
  expect((error as PreconditionFailedError).status).toBe(412);
}

/**
 * Every record an administrator writes has a version that each write moves on, and a conditional
 * write (If-Match) lands only on the version it names: the "admin writes never lose data".
 */
export function recordVersionsContract(factory: RecordStoreFactory): void {
  describe('record versions and conditional writes', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    it('a product starts at version 1 and each replace, archive, relation or brand change moves it on', async () => {
      const { products, brands } = handle.store;
      const target = await products.create(aProduct({ productCode: 'T-1', brandName: 'Acme' }));
      expect(target.version).toBe(1);
      const replaced = await products.replace(target.id, aProduct({ productCode: 'T-1', brandName: 'Acme' }));
      expect(replaced.version).toBe(2);
      // A product relating to it changes its derived "used by" entries: a new version of it.
      await products.create(
        aProduct({ relatedProducts: [{ productId: target.id, relationType: 'optional', qty: 1 }] }),
      );
      expect((await products.get(target.id))?.version).toBe(3);
      const brand = await brands.getBySlug('acme');
      await brands.update(brand?.id as string, { name: 'Acme Tools', slug: 'acme-tools' });
      expect((await products.get(target.id))?.version).toBe(4);
      expect((await products.archive(target.id)).version).toBe(5);
    });

    it('a product write that names the version it read lands; one naming an older version writes nothing', async () => {
      const { products } = handle.store;
      const created = await products.create(aProduct({ productCode: 'P-1', internalNote: 'first' }));
      const first = await products.replace(
        created.id,
        aProduct({ productCode: 'P-1', internalNote: 'second' }),
        audit,
        created.version,
      );
      await expectStale(
        products.replace(
          created.id,
          aProduct({ productCode: 'P-1', internalNote: 'stale' }),
          audit,
          created.version,
        ),
        first.version,
      );
      await expectStale(products.archive(created.id, audit, created.version), first.version);
      const stored = await products.get(created.id);
      expect(stored).toMatchObject({ internalNote: 'second', archived: false, version: first.version });
      await expect(products.replace('no-such-product', aProduct(), audit, 1)).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });

    it('the audit trail records the version each write replaced', async () => {
      const { products } = handle.store;
      const created = await products.create(aProduct({ productCode: 'A-1' }));
      await products.replace(created.id, aProduct({ productCode: 'A-1', notes: 'x' }), audit, 1);
      await products.archive(created.id, audit, 2);
      const page = await handle.store.audit.list({ targetId: created.id, limit: 10 });
      expect(page.events.map((event) => [event.action, event.details?.replacedVersion])).toEqual([
        ['product.archive', 2],
        ['product.replace', 1],
      ]);
    });

    it('a brand write lands only on the version it names', async () => {
      const { brands } = handle.store;
      const brand = await brands.create({ name: 'Bolt' });
      expect(brand.version).toBe(1);
      const renamed = await brands.update(brand.id, { name: 'Bolt Co', slug: 'bolt-co' }, audit, 1);
      expect(renamed.version).toBe(2);
      await expectStale(brands.update(brand.id, { name: 'Stale' }, audit, 1), 2);
      await expectStale(brands.archive(brand.id, audit, 1), 2);
      expect(await brands.get(brand.id)).toMatchObject({ name: 'Bolt Co', archived: false, version: 2 });
    });

    it('a client write lands only on the version it names; its use is not a write', async () => {
      const { clients } = handle.store;
      const client = await clients.create(aClient('c'.repeat(26)));
      expect(client.version).toBe(1);
      await clients.recordUsage(client.clientId, 5);
      await clients.recordTokenExchange(client.clientId, new Date());
      const updated = await clients.update(client.clientId, { scopes: ['brands.read'] }, audit, 1);
      expect(updated.version).toBe(2);
      await expectStale(clients.update(client.clientId, { clientName: 'Stale name' }, audit, 1), 2);
      await expectStale(clients.revoke(client.clientId, { userId: 'u-1', userName: 'Admin' }, audit, 1), 2);
      expect(await clients.get(client.clientId)).toMatchObject({
        clientName: 'Shop sync',
        status: 'active',
        version: 2,
      });
      const revoked = await clients.revoke(client.clientId, { userId: 'u-1', userName: 'Admin' }, audit, 2);
      expect(revoked).toMatchObject({ status: 'revoked', version: 3 });
    });

    it('the channel registry has one version, moved on by each create and rename', async () => {
      const { webChannels } = handle.store;
      const start = registryVersion(await webChannels.list());
      await webChannels.create({ slug: 'eu-shop', name: 'EU shop' }, audit, start);
      expect(registryVersion(await webChannels.list())).toBe(start + 1);
      await expectStale(webChannels.create({ slug: 'us-shop' }, audit, start), start + 1);
      await expectStale(webChannels.rename('eu-shop', 'Stale', audit, start), start + 1);
      const renamed = await webChannels.rename('eu-shop', 'Europe', audit, start + 1);
      expect(renamed.version).toBe(2);
      expect(registryVersion(await webChannels.list())).toBe(start + 2);
      expect((await webChannels.list()).map((channel) => channel.slug)).not.toContain('us-shop');
    });

    it('of two writes naming the same version, exactly one lands', async () => {
      const { products } = handle.store;
      const created = await products.create(aProduct({ productCode: 'R-1' }));
      const outcomes = await Promise.allSettled(
        ['left', 'right'].map((note) =>
          products.replace(created.id, aProduct({ productCode: 'R-1', internalNote: note }), audit, 1),
        ),
      );
      const landed = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(landed).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(PreconditionFailedError);
      expect((await products.get(created.id))?.version).toBe(2);
    });
  });
}
