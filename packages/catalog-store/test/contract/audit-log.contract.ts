import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuditContext,
  type AuditEvent,
  type AuditFilter,
  ClientRevokedError,
  DISABLED_PASSWORD_MARK,
  type NewAuditEvent,
  type NewClient,
  ValidationError,
} from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct } from '../../src/testing/index.ts';

const ADA: AuditContext = {
  actor: { kind: 'admin', userId: 'u-ada', email: 'Ada@Example.com' },
  sourceIp: '192.0.2.10',
  requestId: 'req-ada',
};
const BOB: AuditContext = {
  actor: { kind: 'admin', userId: 'u-bob', email: 'bob@example.com' },
  sourceIp: '192.0.2.11',
  requestId: 'req-bob',
};
const OPERATOR: AuditContext = {
  actor: { kind: 'operator', name: 'operator-cli' },
  sourceIp: null,
  requestId: null,
};

const SECRET_HASH = 'secret-hash-4f1c9a7e0b';
const PASSWORD_HASH = 'scrypt$password-hash-8d2e6b';

let serial = 0;
function aClient(overrides: Partial<NewClient> = {}): NewClient {
  serial += 1;
  return {
    clientId: `a${String(serial).padStart(25, '0')}`,
    clientName: `Audited ${serial}`,
    scopes: ['products.read'],
    createdBy: { userId: 'u-ada', userName: 'Ada Admin' },
    expiresAt: null,
    secretHash: SECRET_HASH,
    tokenLifetimeSeconds: 3600,
    ...overrides,
  };
}

function signIn(context: AuditContext, targetId = 'u-ada'): NewAuditEvent {
  return { ...context, action: 'admin.sign-in', target: { type: 'admin-user', id: targetId } };
}

export function auditLogContract(factory: RecordStoreFactory): void {
  describe('AuditLog', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    const list = (filter: Partial<AuditFilter> = {}) => handle.store.audit.list({ limit: 1000, ...filter });
    const all = async () => (await list()).events;

    /** Follows `nextBefore` to the last page (bounded, so that a cursor that never ends fails the test). */
    async function everyPage(filter: Omit<AuditFilter, 'before'>): Promise<AuditEvent[][]> {
      const pages: AuditEvent[][] = [];
      let page = await handle.store.audit.list(filter);
      pages.push(page.events);
      while (page.nextBefore !== null && pages.length < 100) {
        page = await handle.store.audit.list({ ...filter, before: page.nextBefore });
        pages.push(page.events);
      }
      return pages;
    }

    it('reads an appended event back with every field, an id and the time it was appended', async () => {
      const startedAt = Date.now();
      const appended: NewAuditEvent = {
        ...ADA,
        action: 'client.update',
        target: { type: 'client', id: 'c1' },
        changes: { scopes: { from: ['products.read'], to: ['brands.read'] } },
        details: { reason: 'widened', count: 2, flagged: true, note: null },
      };
      await handle.store.audit.append(appended);
      const page = await list();
      expect(page).toEqual({
        events: [{ ...appended, id: expect.any(String), occurredAt: expect.any(String) }],
        nextBefore: null,
      });
      const [event] = page.events;
      expect(Date.parse(event?.occurredAt ?? '')).toBeGreaterThanOrEqual(startedAt - 1000);
      expect(new Date(Date.parse(event?.occurredAt ?? '')).toISOString()).toBe(event?.occurredAt);
    });

    it('keeps an event without changes or details without those fields, and each kind of actor', async () => {
      await handle.store.audit.append({
        ...OPERATOR,
        action: 'signing-key.stage',
        target: { type: 'signing-key', id: 'k1' },
      });
      await handle.store.audit.append({
        actor: { kind: 'unknown' },
        sourceIp: '198.51.100.7',
        requestId: 'req-x',
        action: 'admin.sign-in-failure',
        target: { type: 'admin-user', id: null },
        details: { reason: 'unknown-account' },
      });
      const [failure, stage] = await all();
      expect(stage).toEqual({
        ...OPERATOR,
        action: 'signing-key.stage',
        target: { type: 'signing-key', id: 'k1' },
        id: expect.any(String),
        occurredAt: expect.any(String),
      });
      expect(failure).toMatchObject({ actor: { kind: 'unknown' }, target: { type: 'admin-user', id: null } });
    });

    it('lists newest first, with ids that grow with every append and times that never go back', async () => {
      for (let n = 0; n < 5; n += 1) await handle.store.audit.append(signIn(ADA, `u${n}`));
      const events = await all();
      expect(events.map((event) => event.target.id)).toEqual(['u4', 'u3', 'u2', 'u1', 'u0']);
      const ids = events.map((event) => BigInt(event.id));
      expect([...ids].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
      const times = events.map((event) => Date.parse(event.occurredAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });

    it('filters by actor: an admin by user id or by email in any case, the operator by operator-cli', async () => {
      await handle.store.audit.append(signIn(ADA));
      await handle.store.audit.append(signIn(BOB, 'u-bob'));
      await handle.store.audit.append({
        ...OPERATOR,
        action: 'admin-user.create',
        target: { type: 'admin-user', id: 'u-new' },
      });
      const actorsOf = async (actor: string) => (await list({ actor })).events.map((event) => event.actor);
      expect(await actorsOf('u-ada')).toEqual([ADA.actor]);
      expect(await actorsOf('ada@example.com')).toEqual([ADA.actor]);
      expect(await actorsOf('BOB@EXAMPLE.COM')).toEqual([BOB.actor]);
      expect(await actorsOf('operator-cli')).toEqual([OPERATOR.actor]);
      expect(await actorsOf('nobody@example.com')).toEqual([]);
    });

    it('filters by action, by target type and by target id, and by all of them at once', async () => {
      await handle.store.audit.append({
        ...ADA,
        action: 'client.create',
        target: { type: 'client', id: 'c1' },
      });
      await handle.store.audit.append({
        ...ADA,
        action: 'client.revoke',
        target: { type: 'client', id: 'c1' },
      });
      await handle.store.audit.append({
        ...ADA,
        action: 'client.create',
        target: { type: 'client', id: 'c2' },
      });
      await handle.store.audit.append({
        ...BOB,
        action: 'brand.create',
        target: { type: 'brand', id: 'c1' },
      });
      const summary = async (filter: Partial<AuditFilter>) =>
        (await list(filter)).events.map((event) => `${event.action} ${event.target.type}:${event.target.id}`);
      expect(await summary({ action: 'client.create' })).toEqual([
        'client.create client:c2',
        'client.create client:c1',
      ]);
      expect(await summary({ targetType: 'client' })).toEqual([
        'client.create client:c2',
        'client.revoke client:c1',
        'client.create client:c1',
      ]);
      expect(await summary({ targetId: 'c1' })).toEqual([
        'brand.create brand:c1',
        'client.revoke client:c1',
        'client.create client:c1',
      ]);
      expect(
        await summary({ targetType: 'client', targetId: 'c1', action: 'client.revoke', actor: 'u-ada' }),
      ).toEqual(['client.revoke client:c1']);
      expect(await summary({ targetType: 'client', actor: 'u-bob' })).toEqual([]);
    });

    it('bounds by time: since is inclusive, until exclusive', async () => {
      for (let n = 0; n < 3; n += 1) await handle.store.audit.append(signIn(ADA, `u${n}`));
      const events = await all();
      const middle = events[1] as AuditEvent;
      const at = Date.parse(middle.occurredAt);
      const ids = (selected: AuditEvent[]) => selected.map((event) => event.id);
      const since = await list({ since: middle.occurredAt });
      expect(ids(since.events)).toContain(middle.id);
      expect(ids(since.events)).toEqual(ids(events.filter((event) => Date.parse(event.occurredAt) >= at)));
      const until = await list({ until: middle.occurredAt });
      expect(ids(until.events)).not.toContain(middle.id);
      expect(ids(until.events)).toEqual(ids(events.filter((event) => Date.parse(event.occurredAt) < at)));
      const after = new Date(at + 1).toISOString();
      expect(ids((await list({ since: middle.occurredAt, until: after })).events)).toEqual(
        ids(events.filter((event) => Date.parse(event.occurredAt) === at)),
      );
      expect((await list({ since: '2999-01-01T00:00:00.000Z' })).events).toEqual([]);
      expect((await list({ until: '2000-01-01T00:00:00.000Z' })).events).toEqual([]);
    });

    it('pages a filtered trail newest first without gaps or repeats, the last page saying so', async () => {
      for (let n = 0; n < 23; n += 1) {
        await handle.store.audit.append(signIn(n % 3 === 0 ? BOB : ADA, `u${n}`));
      }
      const wanted = (await list({ actor: 'u-ada' })).events;
      expect(wanted).toHaveLength(15);
      const pages = await everyPage({ actor: 'u-ada', limit: 4 });
      expect(pages.map((page) => page.length)).toEqual([4, 4, 4, 3]);
      expect(pages.flat()).toEqual(wanted);
      const exact = await everyPage({ limit: 23 });
      expect(exact.map((page) => page.length)).toEqual([23]);
    });

    it('refuses a malformed page cursor, time bound or page size as a validation error', async () => {
      for (const filter of [
        { before: 'abc' },
        { before: '-1' },
        { since: 'yesterday' },
        { until: 'soon' },
        { limit: 0 },
        { limit: 1.5 },
      ]) {
        await expect(list(filter)).rejects.toBeInstanceOf(ValidationError);
      }
    });

    it('records a client create, update and revoke in their own transactions; the update with old → new of the changed fields only', async () => {
      await handle.store.webChannels.create({ slug: 'trade-portal' });
      const client = await handle.store.clients.create(
        aClient({ expiresAt: '2030-01-01T00:00:00.000Z', description: 'ERP' }),
        ADA,
      );
      await handle.store.clients.update(
        client.clientId,
        { scopes: ['products.read', 'brands.read'], channel: 'trade-portal', clientName: client.clientName },
        BOB,
      );
      await handle.store.clients.revoke(client.clientId, { userId: 'u-ada', userName: 'Ada' }, ADA);
      const [revoke, update, create] = await list({ targetType: 'client', targetId: client.clientId }).then(
        (page) => page.events,
      );
      expect(create).toMatchObject({
        ...ADA,
        action: 'client.create',
        target: { type: 'client', id: client.clientId },
        details: {
          clientName: client.clientName,
          scopes: 'products.read',
          channel: null,
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      });
      expect(update).toMatchObject({ ...BOB, action: 'client.update' });
      expect(update?.changes).toEqual({
        scopes: { from: ['products.read'], to: ['products.read', 'brands.read'] },
        channel: { from: null, to: 'trade-portal' },
      });
      expect(revoke).toMatchObject({
        ...ADA,
        action: 'client.revoke',
        target: { type: 'client', id: client.clientId },
      });
      expect(await all()).toHaveLength(3);
    });

    it('appends no event for a write that fails or changes nothing', async () => {
      const client = await handle.store.clients.create(aClient(), ADA);
      await handle.store.clients.revoke(client.clientId, { userId: 'u-ada', userName: 'Ada' }, ADA);
      await expect(
        handle.store.clients.update(client.clientId, { clientName: 'x' }, ADA),
      ).rejects.toBeInstanceOf(ClientRevokedError);
      await handle.store.clients.revoke(client.clientId, { userId: 'u-ada', userName: 'Ada' }, ADA);
      await expect(
        handle.store.clients.create(aClient({ clientId: client.clientId }), ADA),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(handle.store.clients.create(aClient({ channel: 'nowhere' }), ADA)).rejects.toBeInstanceOf(
        ValidationError,
      );
      const product = await handle.store.products.create(aProduct(), ADA);
      await expect(handle.store.products.create(aProduct({ id: product.id }), ADA)).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(
        handle.store.products.upsertMany([aProduct(), aProduct({ webVisibility: { nowhere: true } })], ADA),
      ).rejects.toBeInstanceOf(ValidationError);
      await expect(handle.store.webChannels.rename('nowhere', 'Nowhere', ADA)).rejects.toThrow();
      expect((await all()).map((event) => event.action)).toEqual([
        'product.create',
        'client.revoke',
        'client.create',
      ]);
    });

    it('appends nothing for writes given no audit context', async () => {
      const client = await handle.store.clients.create(aClient());
      await handle.store.clients.update(client.clientId, { clientName: 'Renamed' });
      await handle.store.products.create(aProduct());
      await handle.store.brands.create({ name: 'Quiet' });
      await handle.store.webChannels.create({ slug: 'quiet' });
      await handle.store.adminUsers.create({
        email: 'quiet@example.com',
        passwordHash: PASSWORD_HASH,
        groups: [],
      });
      expect(await all()).toEqual([]);
    });

    it('records product writes: a replace names the changed fields without their values; an import batch is one event', async () => {
      const product = await handle.store.products.create(aProduct({ name: 'Tap', price: 10 }), ADA);
      await handle.store.products.replace(
        product.id,
        { productCode: product.productCode, name: 'Mixer tap', price: 12, description: 'Chrome' },
        ADA,
      );
      await handle.store.products.archive(product.id, ADA);
      await handle.store.products.upsertMany(
        [aProduct(), aProduct(), { ...aProduct(), id: product.id }],
        OPERATOR,
      );
      const [batch, archive, replace, create] = await all();
      expect(create).toMatchObject({
        action: 'product.create',
        target: { type: 'product', id: product.id },
        details: { productCode: product.productCode },
      });
      expect(replace).toMatchObject({
        action: 'product.replace',
        target: { type: 'product', id: product.id },
      });
      expect(replace?.changes).toEqual({ name: {}, price: {}, description: {} });
      expect(archive).toMatchObject({
        action: 'product.archive',
        target: { type: 'product', id: product.id },
      });
      expect(batch).toEqual({
        ...OPERATOR,
        id: expect.any(String),
        occurredAt: expect.any(String),
        action: 'catalogue.import-batch',
        target: { type: 'catalogue', id: null },
        details: { created: 2, updated: 1 },
      });
    });

    it('records brand and web-channel writes with old → new of what changed', async () => {
      const brand = await handle.store.brands.create({ name: 'Acme' }, ADA);
      await handle.store.brands.update(brand.id, { name: 'Acme Tools', slug: 'acme-tools' }, ADA);
      await handle.store.brands.archive(brand.id, ADA);
      await handle.store.webChannels.create({ slug: 'shop', name: 'Shop' }, BOB);
      await handle.store.webChannels.rename('shop', 'Web shop', BOB);
      const [rename, channel, archive, update, create] = await all();
      expect(create).toMatchObject({
        action: 'brand.create',
        target: { type: 'brand', id: brand.id },
        details: { name: 'Acme', slug: brand.slug },
      });
      expect(update?.changes).toEqual({
        name: { from: 'Acme', to: 'Acme Tools' },
        slug: { from: brand.slug, to: 'acme-tools' },
      });
      expect(archive).toMatchObject({ action: 'brand.archive', target: { type: 'brand', id: brand.id } });
      expect(channel).toMatchObject({
        ...BOB,
        action: 'web-channel.create',
        target: { type: 'web-channel', id: 'shop' },
        details: { name: 'Shop' },
      });
      expect(rename).toMatchObject({
        action: 'web-channel.rename',
        changes: { name: { from: 'Shop', to: 'Web shop' } },
      });
    });

    it('records an administrator created and disabled, and nothing for a password change', async () => {
      const user = await handle.store.adminUsers.create(
        { email: 'carol@example.com', passwordHash: PASSWORD_HASH, groups: ['catalogue-admins'] },
        OPERATOR,
      );
      await handle.store.adminUsers.update(user.id, { passwordHash: `${PASSWORD_HASH}-2` }, OPERATOR);
      await handle.store.adminUsers.update(
        user.id,
        { passwordHash: `${DISABLED_PASSWORD_MARK}${PASSWORD_HASH}-2` },
        OPERATOR,
      );
      const [disable, create] = await all();
      expect(create).toMatchObject({
        ...OPERATOR,
        action: 'admin-user.create',
        target: { type: 'admin-user', id: user.id },
        details: { email: 'carol@example.com', groups: 'catalogue-admins' },
      });
      expect(disable).toMatchObject({
        action: 'admin-user.disable',
        target: { type: 'admin-user', id: user.id },
      });
      expect(await all()).toHaveLength(2);
    });

    it('never records a secret hash or a password hash', async () => {
      await handle.store.webChannels.create({ slug: 'trade-portal' }, ADA);
      const client = await handle.store.clients.create(aClient({ channel: 'trade-portal' }), ADA);
      await handle.store.clients.update(client.clientId, { scopes: ['brands.read'], channel: null }, ADA);
      await handle.store.clients.revoke(client.clientId, { userId: 'u-ada', userName: 'Ada' }, ADA);
      const user = await handle.store.adminUsers.create(
        { email: 'dan@example.com', passwordHash: PASSWORD_HASH, groups: [] },
        OPERATOR,
      );
      await handle.store.adminUsers.update(
        user.id,
        { passwordHash: `${DISABLED_PASSWORD_MARK}${PASSWORD_HASH}` },
        OPERATOR,
      );
      const trail = JSON.stringify(await all());
      expect(trail).toContain('admin-user.disable');
      expect(trail).not.toContain(SECRET_HASH);
      expect(trail).not.toContain(PASSWORD_HASH);
      expect(trail).not.toMatch(/secretHash|passwordHash/);
    });
  });
}
