import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AuditContext,
  ClientRevokedError,
  type NewClient,
  NotFoundError,
  ValidationError,
} from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';

let serial = 0;
function aClient(overrides: Partial<NewClient> = {}): NewClient {
  serial += 1;
  return {
    clientId: `c${String(serial).padStart(25, '0')}`,
    clientName: `Integration ${serial}`,
    scopes: ['products.read'],
    createdBy: { userId: 'u1', userName: 'Ada Admin' },
    expiresAt: null,
    secretHash: 'hash',
    tokenLifetimeSeconds: 3600,
    ...overrides,
  };
}

export function clientStoreContract(factory: RecordStoreFactory): void {
  describe('ClientStore', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
      await handle.store.webChannels.create({ slug: 'trade-portal' });
    });
    afterEach(async () => handle.dispose());

    it('stores every field of spec 2.4 plus the secret hash, token lifetime and version', async () => {
      const input = aClient({
        description: 'ERP sync',
        scopes: ['products.read', 'brands.read'],
        expiresAt: '2030-01-01T00:00:00.000Z',
        channel: 'trade-portal',
        tokenLifetimeSeconds: 86400,
      });
      const created = await handle.store.clients.create(input);
      expect(created).toEqual({
        clientId: input.clientId,
        clientName: input.clientName,
        description: 'ERP sync',
        scopes: ['products.read', 'brands.read'],
        status: 'active',
        createdAt: expect.any(String),
        createdBy: { userId: 'u1', userName: 'Ada Admin' },
        expiresAt: '2030-01-01T00:00:00.000Z',
        lastUsedAt: null,
        usageCount: 0,
        revokedAt: null,
        revokedBy: null,
        channel: 'trade-portal',
        secretHash: 'hash',
        tokenLifetimeSeconds: 86400,
        version: 1,
      });
      expect(await handle.store.clients.get(input.clientId)).toEqual(created);
    });

    it('refuses a channel that is not registered', async () => {
      await expect(handle.store.clients.create(aClient({ channel: 'nowhere' }))).rejects.toBeInstanceOf(
        ValidationError,
      );
    });

    it('renames, rescopes, binds and unbinds an active client', async () => {
      const { clientId } = await handle.store.clients.create(aClient());
      const bound = await handle.store.clients.update(clientId, {
        clientName: 'Renamed',
        scopes: ['brands.read'],
        channel: 'trade-portal',
      });
      expect(bound).toMatchObject({
        clientName: 'Renamed',
        scopes: ['brands.read'],
        channel: 'trade-portal',
      });
      const unbound = await handle.store.clients.update(clientId, { channel: null });
      expect(unbound.channel).toBeNull();
      expect(unbound.clientName).toBe('Renamed');
    });

    it('revokes irreversibly and refuses later updates', async () => {
      const { clientId } = await handle.store.clients.create(aClient());
      const revoked = await handle.store.clients.revoke(clientId, { userId: 'u2', userName: 'Bob' });
      expect(revoked).toMatchObject({ status: 'revoked', revokedBy: { userId: 'u2', userName: 'Bob' } });
      expect(revoked.revokedAt).not.toBeNull();
      await expect(handle.store.clients.update(clientId, { clientName: 'Again' })).rejects.toBeInstanceOf(
        ClientRevokedError,
      );
      expect(await handle.store.clients.revoke(clientId, { userId: 'u3', userName: 'Eve' })).toEqual(revoked);
    });

    it("stamps a revoke with its transaction's time, on the client and on the revoke's audit event", async () => {
      const audit: AuditContext = {
        actor: { kind: 'admin', userId: 'u2', email: 'bob@example.com' },
        sourceIp: null,
        requestId: null,
      };
      // A stopped clock: a time taken from it rather than from the transaction is not after the
      // product's updatedAt, which the transaction's time always is.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2030-01-01T00:00:00.000Z') });
      try {
        const { clientId } = await handle.store.clients.create(aClient());
        const product = await handle.store.products.create(aProduct());
        const revoked = await handle.store.clients.revoke(clientId, { userId: 'u2', userName: 'Bob' }, audit);
        const { events } = await handle.store.audit.list({ limit: 10, action: 'client.revoke' });
        expect(events.map((event) => event.occurredAt)).toEqual([revoked.revokedAt]);
        expect(Date.parse(revoked.revokedAt as string)).toBeGreaterThan(Date.parse(product.updatedAt));
      } finally {
        vi.useRealTimers();
      }
    });

    it('lists clients by status', async () => {
      const active = await handle.store.clients.create(aClient());
      const revoked = await handle.store.clients.create(aClient());
      await handle.store.clients.revoke(revoked.clientId, { userId: 'u', userName: 'U' });
      const ids = async (status: 'active' | 'revoked' | 'all') =>
        (await handle.store.clients.list({ status })).map((c) => c.clientId);
      expect(await ids('active')).toEqual([active.clientId]);
      expect(await ids('revoked')).toEqual([revoked.clientId]);
      expect(await ids('all')).toHaveLength(2);
    });

    it('records the last token exchange and counts API calls', async () => {
      const { clientId } = await handle.store.clients.create(aClient());
      const at = new Date('2031-05-06T07:08:09.000Z');
      await handle.store.clients.recordTokenExchange(clientId, at);
      await handle.store.clients.recordUsage(clientId, 3);
      await handle.store.clients.recordUsage(clientId, 1);
      expect(await handle.store.clients.get(clientId)).toMatchObject({
        lastUsedAt: at.toISOString(),
        usageCount: 4,
      });
      await expect(handle.store.clients.recordUsage('x'.repeat(26), 1)).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
