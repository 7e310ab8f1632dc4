import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AttemptResult,
  type AuditContext,
  type ClaimedDelivery,
  type NewClient,
  type NewWebhookSubscription,
  NotFoundError,
  PreconditionFailedError,
  type RecordStore,
} from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../../src/testing/index.ts';
import { aProduct, openStoreAt } from '../../src/testing/index.ts';

const ADMIN: AuditContext = {
  actor: { kind: 'admin', userId: 'u1', email: 'ada@example.com' },
  sourceIp: '127.0.0.1',
  requestId: 'req-1',
};
const CLAIM = { limit: 100, perSubscription: 100, leaseMs: 60_000 };

let serial = 0;
function aClient(overrides: Partial<NewClient> = {}): NewClient {
  serial += 1;
  return {
    clientId: `w${String(serial).padStart(25, '0')}`,
    clientName: `Webhook integration ${serial}`,
    scopes: ['products.read'],
    createdBy: { userId: 'u1', userName: 'Ada Admin' },
    expiresAt: null,
    secretHash: 'hash',
    tokenLifetimeSeconds: 3600,
    ...overrides,
  };
}

function aSubscription(
  clientId: string,
  overrides: Partial<NewWebhookSubscription> = {},
): NewWebhookSubscription {
  serial += 1;
  return {
    id: `S${String(serial).padStart(25, '0')}`,
    clientId,
    url: 'https://hooks.example.com/catalog?token=receiver-secret',
    description: null,
    eventTypes: ['product.created', 'product.changed', 'product.archived', 'brand.changed'],
    enabled: true,
    secretSealed: 'sealed-secret-1',
    createdBy: { userId: 'u1', userName: 'Ada Admin' },
    ...overrides,
  };
}

async function drain(store: RecordStore): Promise<void> {
  while ((await store.webhooks.enqueueChanges(1000)).queued > 0);
}

/** The result of an attempt of `delivery` that the endpoint answered with a 2xx. */
function deliveredResult(
  delivery: ClaimedDelivery | undefined,
  statusCode = 204,
  latencyMs = 3,
): AttemptResult {
  return {
    deliveryId: delivery?.id as string,
    claim: delivery?.claim as string,
    outcome: 'delivered',
    statusCode,
    error: null,
    latencyMs,
    startedAt: new Date(),
    nextAttemptAt: null,
  };
}

/** Claims until nothing is due, settling each claim as delivered; the event types and ids in delivery order. */
async function deliverAll(store: RecordStore): Promise<ClaimedDelivery[]> {
  const sent: ClaimedDelivery[] = [];
  for (;;) {
    const claimed = await store.webhooks.claimDue(CLAIM);
    if (claimed.length === 0) return sent;
    for (const delivery of claimed) {
      sent.push(delivery);
      await store.webhooks.recordAttempts([deliveredResult(delivery)]);
    }
  }
}

export function webhookStoreContract(factory: RecordStoreFactory): void {
  describe('WebhookStore', () => {
    let handle: RecordStoreHandle;
    let store: RecordStore;
    beforeEach(async () => {
      handle = await factory();
      store = handle.store;
    });
    afterEach(async () => handle.dispose());

    it('stores a subscription, audits each administrative write without a secret or the URL query, and checks versions', async () => {
      const client = await store.clients.create(aClient());
      const input = aSubscription(client.clientId, { description: 'Shop' });
      const created = await store.webhooks.createSubscription(input, ADMIN);
      expect(created).toMatchObject({
        id: input.id,
        clientId: client.clientId,
        url: input.url,
        description: 'Shop',
        enabled: true,
        disabledReason: null,
        failingSince: null,
        secretSealed: 'sealed-secret-1',
        previousSecretSealed: null,
        version: 1,
        clientActive: true,
      });
      expect(await store.webhooks.getSubscription(input.id)).toEqual(created);
      expect(await store.webhooks.listSubscriptions({ clientId: client.clientId })).toEqual([created]);

      await expect(
        store.webhooks.updateSubscription(input.id, { enabled: false }, ADMIN, 7),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      const disabled = await store.webhooks.updateSubscription(input.id, { enabled: false }, ADMIN, 1);
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'admin', version: 2 });
      const rotated = await store.webhooks.rotateSecret(
        input.id,
        { secretSealed: 'sealed-secret-2', previousSecretExpiresAt: '2030-01-01T00:00:00.000Z' },
        ADMIN,
      );
      expect(rotated).toMatchObject({
        secretSealed: 'sealed-secret-2',
        previousSecretSealed: 'sealed-secret-1',
        previousSecretExpiresAt: '2030-01-01T00:00:00.000Z',
      });
      await store.webhooks.deleteSubscription(input.id, ADMIN);
      expect(await store.webhooks.getSubscription(input.id)).toBeUndefined();
      await expect(store.webhooks.deleteSubscription(input.id, ADMIN)).rejects.toBeInstanceOf(NotFoundError);

      const trail = await store.audit.list({ targetType: 'webhook-subscription', limit: 10 });
      expect(trail.events.map((event) => event.action).reverse()).toEqual([
        'webhook-subscription.create',
        'webhook-subscription.update',
        'webhook-subscription.rotate-secret',
        'webhook-subscription.delete',
      ]);
      const text = JSON.stringify(trail.events);
      expect(text).not.toContain('sealed-secret');
      expect(text).not.toContain('receiver-secret');
    });

    it('turns each change after the subscription into one delivery per allowed event type, in feed order', async () => {
      const before = aProduct();
      await store.products.create(before);
      const client = await store.clients.create(aClient({ scopes: ['products.read'] }));
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      const product = aProduct();
      await store.products.create(product);
      await store.products.replace(product.id as string, { ...product, name: 'Renamed' });
      await store.products.archive(product.id as string);
      await store.brands.create({ name: 'Acme' });
      await drain(store);
      const sent = await deliverAll(store);
      // No brand.changed: the client cannot read brands. Nothing from before the subscription.
      expect(sent.map((delivery) => [delivery.eventType, delivery.entityId])).toEqual([
        ['product.created', product.id],
        ['product.changed', product.id],
        ['product.archived', product.id],
      ]);
      expect(new Set(sent.map((delivery) => delivery.id)).size).toBe(3);
      expect(sent.every((delivery) => /^msg_[a-zA-Z0-9]{26}$/.test(delivery.id))).toBe(true);
      expect(sent[0]?.url).toBe(subscription.url);
      expect(sent[0]?.secretsSealed).toEqual(['sealed-secret-1']);
      const log = await store.webhooks.listDeliveries(subscription.id, { limit: 2 });
      expect(log.deliveries.map((delivery) => delivery.eventType)).toEqual([
        'product.archived',
        'product.changed',
      ]);
      expect(log.deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 204 });
      const older = await store.webhooks.listDeliveries(subscription.id, {
        limit: 2,
        before: log.nextBefore as string,
      });
      expect(older).toEqual({
        deliveries: [expect.objectContaining({ eventType: 'product.created' })],
        nextBefore: null,
      });
    });

    it('queues nothing for a disabled subscription, nor for a revoked client, whose waiting deliveries are cancelled', async () => {
      const client = await store.clients.create(aClient({ scopes: ['products.read', 'brands.read'] }));
      const off = await store.webhooks.createSubscription(aSubscription(client.clientId, { enabled: false }));
      const on = await store.webhooks.createSubscription(aSubscription(client.clientId));
      await store.brands.create({ name: 'Acme' });
      await drain(store);
      expect((await store.webhooks.listDeliveries(off.id, { limit: 10 })).deliveries).toEqual([]);
      expect((await store.webhooks.listDeliveries(on.id, { limit: 10 })).deliveries).toHaveLength(1);
      await store.clients.revoke(client.clientId, { userId: 'u1', userName: 'Ada Admin' });
      expect(await store.webhooks.claimDue(CLAIM)).toEqual([]);
      const [cancelled] = (await store.webhooks.listDeliveries(on.id, { limit: 10 })).deliveries;
      expect(cancelled?.status).toBe('cancelled');
      expect((await store.webhooks.getSubscription(on.id))?.clientActive).toBe(false);
      await store.brands.create({ name: 'Other' });
      await drain(store);
      expect((await store.webhooks.listDeliveries(on.id, { limit: 10 })).deliveries).toHaveLength(1);
    });

    it("never claims a record's later event while an earlier one of the same subscription waits, and caps each endpoint's claims", async () => {
      const client = await store.clients.create(aClient());
      await store.webhooks.createSubscription(aSubscription(client.clientId));
      const a = aProduct();
      const b = aProduct();
      await store.products.create(a);
      await store.products.replace(a.id as string, { ...a, name: 'A2' });
      await store.products.create(b);
      await drain(store);
      const first = await store.webhooks.claimDue(CLAIM);
      expect(first.map((delivery) => [delivery.entityId, delivery.eventType])).toEqual([
        [a.id, 'product.created'],
        [b.id, 'product.created'],
      ]);
      expect(await store.webhooks.claimDue(CLAIM)).toEqual([]);
      const [firstOfA] = first;
      await store.webhooks.recordAttempts([deliveredResult(firstOfA, 200, 1)]);
      const next = await store.webhooks.claimDue({ ...CLAIM, perSubscription: 2 });
      expect(next.map((delivery) => [delivery.entityId, delivery.eventType])).toEqual([
        [a.id, 'product.changed'],
      ]);
    });

    it('records a round of settled attempts, queues new changes and claims the next events in one call, each record in feed order', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      const [one, two] = [aProduct(), aProduct()];
      await store.products.create(one);
      await store.products.create(two);
      await store.products.replace(one.id as string, { ...one, name: 'Renamed' });
      const first = await store.webhooks.deliveryRound({ settled: [], enqueueLimit: 1000, claim: CLAIM });
      expect(first.enqueued.queued).toBe(3);
      // one's change waits for its creation to be delivered; two's creation goes at once.
      expect(first.claimed.map((delivery) => [delivery.eventType, delivery.entityId])).toEqual([
        ['product.created', one.id],
        ['product.created', two.id],
      ]);
      await store.products.archive(two.id as string);
      const delivered = first.claimed.map((delivery) => deliveredResult(delivery, 204, 4));
      // A late copy of the same results (its claims already spent) is ignored.
      const second = await store.webhooks.deliveryRound({
        settled: [...delivered, ...delivered],
        enqueueLimit: 1000,
        claim: CLAIM,
      });
      expect(second.enqueued.queued).toBe(1);
      expect(second.claimed.map((delivery) => [delivery.eventType, delivery.entityId])).toEqual([
        ['product.changed', one.id],
        ['product.archived', two.id],
      ]);
      for (const delivery of first.claimed)
        expect(await store.webhooks.listAttempts(delivery.id)).toEqual([
          expect.objectContaining({ attempt: 1, outcome: 'delivered', statusCode: 204, latencyMs: 4 }),
        ]);
      expect((await store.webhooks.getSubscription(subscription.id))?.lastSuccessAt).not.toBeNull();
      const idle = await store.webhooks.deliveryRound({ settled: [], enqueueLimit: 1000, claim: CLAIM });
      expect(idle).toEqual({
        enqueued: { through: second.enqueued.head, head: second.enqueued.head, queued: 0 },
        claimed: [],
      });
    });

    it("writes a round's new deliveries claimed, as the round's claim would take them: within the subscription's room, after what was due before, each the same as its delivery log shows", async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      const products = [aProduct(), aProduct(), aProduct()];
      for (const product of products) await store.products.create(product);
      const claim = { ...CLAIM, perSubscription: 2 };
      const first = await store.webhooks.deliveryRound({ settled: [], enqueueLimit: 1000, claim });
      expect(first.enqueued.queued).toBe(3);
      expect(first.claimed.map((delivery) => delivery.entityId)).toEqual([products[0]?.id, products[1]?.id]);
      const log = (await store.webhooks.listDeliveries(subscription.id, { limit: 10 })).deliveries;
      expect(log.map((delivery) => [delivery.entityId, delivery.status])).toEqual([
        [products[2]?.id, 'pending'],
        [products[1]?.id, 'delivering'],
        [products[0]?.id, 'delivering'],
      ]);
      for (const claimed of first.claimed) {
        const { claim: _claim, url, secretsSealed, failedAttempts, ...shown } = claimed;
        expect(shown).toEqual(log.find((delivery) => delivery.id === claimed.id));
        expect([url, secretsSealed, failedAttempts]).toEqual([subscription.url, ['sealed-secret-1'], 0]);
      }
      // No room: a new change is queued waiting.
      const fourth = aProduct();
      await store.products.create(fourth);
      const full = await store.webhooks.deliveryRound({ settled: [], enqueueLimit: 1000, claim });
      expect([full.enqueued.queued, full.claimed]).toEqual([1, []]);
      // One settles: its room goes to the delivery due before the new ones.
      const [done] = first.claimed;
      await store.products.create(aProduct());
      const next = await store.webhooks.deliveryRound({
        settled: [deliveredResult(done)],
        enqueueLimit: 1000,
        claim,
      });
      expect(next.enqueued.queued).toBe(1);
      expect(next.claimed.map((delivery) => delivery.entityId)).toEqual([products[2]?.id]);
    });

    it('queues new changes no faster than they are sent: only while some listening subscription has fewer than enqueueAhead deliveries due', async () => {
      const client = await store.clients.create(aClient());
      await store.webhooks.createSubscription(aSubscription(client.clientId));
      for (let i = 0; i < 3; i += 1) await store.products.create(aProduct());
      const round = (enqueueAhead: number | null) =>
        store.webhooks.deliveryRound({ settled: [], enqueueLimit: 1000, enqueueAhead, claim: null });
      expect((await round(2)).enqueued.queued).toBe(3);
      await store.products.create(aProduct());
      await store.products.create(aProduct());
      // Three due, two asked for ahead: the feed keeps the two new changes.
      const held = await round(2);
      expect(held.enqueued.queued).toBe(0);
      expect(held.enqueued.through).toBeLessThan(held.enqueued.head);
      // A subscription with nothing due is short: the changes are queued for both.
      await store.webhooks.createSubscription(aSubscription(client.clientId));
      await store.products.create(aProduct());
      const queued = await round(2);
      expect(queued.enqueued.queued).toBe(2 + 2);
      expect(queued.enqueued.through).toBe(queued.enqueued.head);
      await store.products.create(aProduct());
      // Without a bound, queued whatever waits.
      expect((await round(1)).enqueued.queued).toBe(0);
      expect((await round(null)).enqueued.queued).toBe(2);
    });

    it('gives a claim whose lease ran out to the next claimer and ignores the late result of the first', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      await store.products.create(aProduct());
      await drain(store);
      const [lost] = await store.webhooks.claimDue({ ...CLAIM, leaseMs: 0 });
      const [taken] = await store.webhooks.claimDue(CLAIM);
      expect(taken?.id).toBe(lost?.id);
      expect(taken?.claim).not.toBe(lost?.claim);
      await store.webhooks.recordAttempts([deliveredResult(lost, 200, 1)]);
      const [row] = (await store.webhooks.listDeliveries(subscription.id, { limit: 1 })).deliveries;
      expect(row?.status).toBe('delivering');
      expect(await store.webhooks.listAttempts(lost?.id as string)).toEqual([]);
    });

    it('retries, gives up into the failing state (audited), recovers on the next success and brings retries forward', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      const [one, two] = [aProduct(), aProduct()];
      await store.products.create(one);
      await store.products.create(two);
      await drain(store);
      const [d1, d2] = await store.webhooks.claimDue(CLAIM);
      const failure = { statusCode: 503, error: 'answered 503', latencyMs: 2, startedAt: new Date() };
      await store.webhooks.recordAttempts([
        {
          deliveryId: d1?.id as string,
          claim: d1?.claim as string,
          outcome: 'retry',
          ...failure,
          nextAttemptAt: new Date(Date.now() - 1),
        },
      ]);
      await store.webhooks.recordAttempts([
        {
          deliveryId: d2?.id as string,
          claim: d2?.claim as string,
          outcome: 'retry',
          ...failure,
          nextAttemptAt: new Date(Date.now() + 3_600_000),
        },
      ]);
      const [again] = await store.webhooks.claimDue(CLAIM);
      expect(again).toMatchObject({ id: d1?.id, failedAttempts: 1 });
      await store.webhooks.recordAttempts([
        {
          deliveryId: again?.id as string,
          claim: again?.claim as string,
          outcome: 'retry',
          ...failure,
          nextAttemptAt: null,
        },
      ]);
      const failing = await store.webhooks.getSubscription(subscription.id);
      expect(failing).toMatchObject({ lastError: 'answered 503' });
      expect(failing?.failingSince).not.toBeNull();
      expect((await store.webhooks.listAttempts(d1?.id as string)).map((attempt) => attempt.outcome)).toEqual(
        ['retry', 'retry'],
      );
      // One delivered event (redelivered by hand) clears the state and sends the hour-away retry now.
      expect(await store.webhooks.redeliver(subscription.id, { deliveryId: d1?.id as string }, ADMIN)).toBe(
        1,
      );
      const [redelivered] = await store.webhooks.claimDue(CLAIM);
      expect(redelivered?.id).toBe(d1?.id);
      await store.webhooks.recordAttempts([deliveredResult(redelivered, 200, 1)]);
      expect((await store.webhooks.getSubscription(subscription.id))?.failingSince).toBeNull();
      const [broughtForward] = await store.webhooks.claimDue(CLAIM);
      expect(broughtForward?.id).toBe(d2?.id);
      const actions = (await store.audit.list({ targetType: 'webhook-subscription', limit: 10 })).events.map(
        (event) => [event.action, event.actor.kind],
      );
      expect(actions.reverse()).toEqual([
        ['webhook-subscription.failing', 'service'],
        ['webhook-subscription.redeliver', 'admin'],
        ['webhook-subscription.recover', 'service'],
      ]);
    });

    it('disables the subscription when the endpoint answers 410 Gone', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      await store.products.create(aProduct());
      await drain(store);
      const [delivery] = await store.webhooks.claimDue(CLAIM);
      await store.webhooks.recordAttempts([
        {
          deliveryId: delivery?.id as string,
          claim: delivery?.claim as string,
          outcome: 'gone',
          statusCode: 410,
          error: 'answered 410 Gone',
          latencyMs: 1,
          startedAt: new Date(),
          nextAttemptAt: null,
        },
      ]);
      expect(await store.webhooks.getSubscription(subscription.id)).toMatchObject({
        enabled: false,
        disabledReason: 'gone',
      });
      await store.products.create(aProduct());
      await drain(store);
      expect(await store.webhooks.claimDue(CLAIM)).toEqual([]);
      const enabled = await store.webhooks.updateSubscription(subscription.id, { enabled: true });
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    });

    it('signs with both secrets while a rotation overlaps, and with the new one only when it does not', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      await store.webhooks.rotateSecret(subscription.id, {
        secretSealed: 'sealed-secret-2',
        previousSecretExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await store.products.create(aProduct());
      await drain(store);
      const [overlapping] = await store.webhooks.claimDue(CLAIM);
      expect(overlapping?.secretsSealed).toEqual(['sealed-secret-2', 'sealed-secret-1']);
      await store.webhooks.rotateSecret(subscription.id, {
        secretSealed: 'sealed-secret-3',
        previousSecretExpiresAt: null,
      });
      await store.products.create(aProduct());
      await drain(store);
      const [alone] = await store.webhooks.claimDue(CLAIM);
      expect(alone?.secretsSealed).toEqual(['sealed-secret-3']);
    });

    it('redelivers a time range of finished deliveries with their ids unchanged', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      for (let i = 0; i < 3; i += 1) await store.products.create(aProduct());
      await drain(store);
      const first = await deliverAll(store);
      const queued = await store.webhooks.redeliver(subscription.id, {
        from: '2000-01-01T00:00:00.000Z',
        to: '2100-01-01T00:00:00.000Z',
      });
      expect(queued).toBe(3);
      const second = await deliverAll(store);
      expect(second.map((delivery) => delivery.id)).toEqual(first.map((delivery) => delivery.id));
      await expect(
        store.webhooks.redeliver(subscription.id, { deliveryId: 'msg_00000000000000000000000000' }),
      ).rejects.toBeInstanceOf(NotFoundError);
      expect(await store.webhooks.queueDepth()).toEqual({ pending: 0, feedBacklog: 0 });
    });

    it('prunes finished deliveries queued before the cutoff with their attempts, oldest first and at most the limit, never one waiting or under way', async () => {
      const client = await store.clients.create(aClient());
      const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
      for (let i = 0; i < 3; i += 1) await store.products.create(aProduct());
      await drain(store);
      const finished = await deliverAll(store);
      for (let i = 0; i < 2; i += 1) await store.products.create(aProduct());
      await drain(store);
      const [underWay] = await store.webhooks.claimDue({ ...CLAIM, limit: 1 });
      expect(underWay).toBeDefined();
      const later = new Date(Date.now() + 60_000);

      expect(await store.webhooks.pruneDeliveries(new Date(0), 10)).toBe(0);
      expect(await store.webhooks.pruneDeliveries(later, 2)).toBe(2);
      const log = await store.webhooks.listDeliveries(subscription.id, { limit: 10 });
      expect(log.deliveries.map((delivery) => delivery.id).sort()).toEqual(
        [
          finished[2]?.id,
          underWay?.id,
          ...log.deliveries.filter((d) => d.status === 'pending').map((d) => d.id),
        ].sort(),
      );
      expect(await store.webhooks.listAttempts(finished[0]?.id as string)).toEqual([]);
      expect(await store.webhooks.listAttempts(finished[2]?.id as string)).toHaveLength(1);

      expect(await store.webhooks.pruneDeliveries(later, 10)).toBe(1);
      expect(await store.webhooks.pruneDeliveries(later, 10)).toBe(0);
      const open = await store.webhooks.listDeliveries(subscription.id, { limit: 10 });
      expect(open.deliveries.map((delivery) => delivery.status).sort()).toEqual(['delivering', 'pending']);
    });

    it('lets two processes enqueue and claim at once without queueing or claiming anything twice', async () => {
      const other = await openStoreAt(JSON.stringify(handle.location));
      try {
        const client = await store.clients.create(aClient());
        const subscription = await store.webhooks.createSubscription(aSubscription(client.clientId));
        for (let i = 0; i < 40; i += 1) await store.products.create(aProduct());
        await Promise.all([drain(store), drain(other)]);
        const claims = await Promise.all([
          store.webhooks.claimDue({ ...CLAIM, perSubscription: 1000 }),
          other.webhooks.claimDue({ ...CLAIM, perSubscription: 1000 }),
        ]);
        const ids = claims.flat().map((delivery) => delivery.id);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
        const log = await store.webhooks.listDeliveries(subscription.id, { limit: 200 });
        expect(log.deliveries).toHaveLength(40);
      } finally {
        await other.close();
      }
    });
  });
}
