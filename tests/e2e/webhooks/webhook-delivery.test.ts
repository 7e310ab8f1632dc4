// Issue 31, signed change notifications, as an integrator's endpoint meets them: a real HTTPS receiver
// on loopback (the stack's certificate, so its local CA) gets the events of admin writes, verifies each
// signature with the SDK's verifier, and sees only what its client may read; and as an administrator
// meets their failures: retries, giving up (failing), 410 Gone, revocation, the endpoint rules.
import type {
  WebhookDeliveryPage,
  WebhookSubscription,
  WebhookSubscriptionCreated,
} from '@catalog/contracts';
import { verifyWebhook } from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveProduct,
  createBrand,
  createProduct,
  replaceProduct,
  uniqueCode,
} from '../conformance/support/catalogue.ts';
import { type Call, contractCall } from '../conformance/support/contract.ts';
import { adminToken, m2mCaller } from '../conformance/support/people.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import {
  eventOf,
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../support/webhook-receiver.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startE2EStack({
    demoProducts: 20,
    env: {
      // The development setting: the receiver is on loopback.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
      // Four attempts 0.2 s apart instead of 24 hours of them: what giving up does, seen in a test.
      WEBHOOK_RETRY_SCHEDULE_MS: '200,200,200',
      WEBHOOK_RESPONSE_TIMEOUT_MS: '2000',
    },
  });
  call = contractCall(stack);
  admin = await adminToken(stack);
  receiver = await startWebhookReceiver(stack.dataDir);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function subscribe(
  clientId: string,
  eventTypes: string[],
  path: string,
): Promise<WebhookSubscriptionCreated> {
  const reply = await call('/admin/webhook-subscriptions', {
    method: 'POST',
    token: admin,
    body: { clientId, url: receiver.url(path), eventTypes },
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as WebhookSubscriptionCreated;
}

const subscription = async (id: string) =>
  (await call(`/admin/webhook-subscriptions/${id}`, { token: admin })).body as WebhookSubscription;
const deliveries = async (id: string, query = '') =>
  (await call(`/admin/webhook-subscriptions/${id}/deliveries?limit=200${query}`, { token: admin }))
    .body as WebhookDeliveryPage;
const at = (path: string) => (received: readonly ReceivedWebhook[]) =>
  received.filter((webhook) => webhook.path === path);

/** Polls the API (the state an administrator sees) until `predicate` holds, on a machine ten times slower. */
async function eventually<T>(
  read: () => Promise<T>,
  predicate: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (predicate(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not seen; last ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhooks: delivery to a real HTTPS endpoint', () => {
  it('delivers every event of a run of writes, signed (the SDK verifies each), in write order per product, and none outside the client view', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(
      shop.clientId,
      ['product.created', 'product.changed', 'product.archived'],
      '/all',
    );
    expect(created.secret).toMatch(/^whsec_/);
    const products = [];
    for (let i = 0; i < 6; i += 1)
      products.push(
        await createProduct(call, admin, { productCode: uniqueCode('HOOK'), name: `Hooked ${i}` }),
      );
    for (const product of products.slice(0, 3))
      await replaceProduct(call, admin, product.id, {
        productCode: product.productCode,
        name: `${product.name} v2`,
      });
    await archiveProduct(call, admin, products[5]?.id as string);
    await createBrand(call, admin, { name: `Hook brand ${Date.now()}` }); // brands.read is not the client's
    const expected = 6 + 3 + 1;
    await receiver.until((received) => at('/all')(received).length >= expected, `${expected} events`);

    const events = at('/all')(receiver.received).map((webhook) => {
      const event = verifyWebhook({ headers: webhook.headers, body: webhook.body }, created.secret);
      expect(Object.keys(event).sort()).toEqual(['data', 'timestamp', 'type']);
      expect(Object.keys(event.data).sort()).toEqual(['id', 'updatedAt']);
      return { ...event, messageId: webhook.headers['webhook-id'] };
    });
    expect(events).toHaveLength(expected);
    expect(new Set(events.map((event) => event.messageId)).size).toBe(expected);
    const ids = new Set(products.map((product) => product.id));
    expect(events.every((event) => ids.has(event.data.id))).toBe(true);
    for (const product of products) {
      const own = events.filter((event) => event.data.id === product.id).map((event) => event.type);
      const index = products.indexOf(product);
      expect(own).toEqual(
        index < 3
          ? ['product.created', 'product.changed']
          : index === 5
            ? ['product.created', 'product.archived']
            : ['product.created'],
      );
    }
    // What an event names, the client may read: its own GET /products/{id} answers for each.
    for (const id of new Set(events.map((event) => event.data.id)))
      expect((await call(`/products/${id}`, { token: shop.token })).status).toBe(200);

    const log = await eventually(
      () => deliveries(created.id),
      (page) => page.deliveries.length === expected && page.deliveries.every((d) => d.status === 'succeeded'),
      'every delivery succeeded in the log',
    );
    expect(
      log.deliveries.every((delivery) => delivery.attempts === 1 && delivery.lastStatusCode === 204),
    ).toBe(true);
  });

  it('retries a failing endpoint, honouring Retry-After, and the delivery log says so', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/flaky');
    let refusals = 0;
    receiver.answerWith((webhook) =>
      webhook.path === '/flaky' && refusals++ < 2
        ? { status: 503, headers: { 'retry-after': '1' } }
        : { status: 204 },
    );
    try {
      const product = await createProduct(call, admin, { productCode: uniqueCode('FLAKY'), name: 'Flaky' });
      await receiver.until((received) => at('/flaky')(received).length >= 3, 'three attempts');
      const attempts = at('/flaky')(receiver.received);
      expect(new Set(attempts.map((webhook) => webhook.headers['webhook-id'])).size).toBe(1);
      expect(eventOf(attempts[0] as ReceivedWebhook).data.id).toBe(product.id);
      // Retry-After: 1 is longer than the schedule's 0.2 s: each retry waited for it.
      expect((attempts[1]?.receivedAt ?? 0) - (attempts[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000);
      expect((attempts[2]?.receivedAt ?? 0) - (attempts[1]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1000);
      const log = await eventually(
        () => deliveries(created.id),
        (page) => page.deliveries[0]?.status === 'succeeded',
        'the delivery succeeded',
      );
      expect(log.deliveries[0]).toMatchObject({ attempts: 3, lastStatusCode: 204, lastError: null });
    } finally {
      receiver.answerWith(() => ({ status: 204 }));
    }
  });

  it('gives up after the retry schedule, marks the subscription failing in the audit trail, and a redelivered range clears it', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/down');
    receiver.answerWith((webhook) => (webhook.path === '/down' ? { status: 500 } : { status: 204 }));
    const since = new Date().toISOString();
    try {
      await createProduct(call, admin, { productCode: uniqueCode('DOWN'), name: 'Down' });
      const failing = await eventually(
        () => subscription(created.id),
        (value) => value.state === 'failing',
        'the subscription failing',
      );
      expect(failing.lastError).toMatch(/500/);
      expect(at('/down')(receiver.received)).toHaveLength(4);
      const [given] = (await deliveries(created.id)).deliveries;
      expect(given).toMatchObject({ status: 'failed', attempts: 4, nextAttemptAt: null });
      const trail = await call(
        `/audit-events?targetType=webhook-subscription&targetId=${created.id}&action=webhook-subscription.failing`,
        { token: admin },
      );
      expect((trail.body as { events: { actor: unknown }[] }).events[0]?.actor).toEqual({
        kind: 'service',
        name: 'webhook-delivery',
      });
    } finally {
      receiver.answerWith(() => ({ status: 204 }));
    }
    const redeliver = await call(`/admin/webhook-subscriptions/${created.id}/redeliver`, {
      method: 'POST',
      token: admin,
      body: { from: since, to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(redeliver.status, redeliver.text).toBe(200);
    expect(redeliver.body).toEqual({ queued: 1 });
    await eventually(
      () => subscription(created.id),
      (value) => value.state === 'active' && value.failingSince === null,
      'the subscription active again',
    );
    expect(at('/down')(receiver.received)).toHaveLength(5);
  });

  it('disables the subscription when the endpoint answers 410 Gone, and sends it nothing more', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/gone');
    receiver.answerWith((webhook) => (webhook.path === '/gone' ? { status: 410 } : { status: 204 }));
    try {
      await createProduct(call, admin, { productCode: uniqueCode('GONE'), name: 'Gone' });
      const disabled = await eventually(
        () => subscription(created.id),
        (value) => value.state === 'disabled',
        'the subscription disabled',
      );
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'gone' });
      await createProduct(call, admin, { productCode: uniqueCode('GONE'), name: 'Gone again' });
      // A later subscription of another client hears of the next write: the worker has moved past it.
      const witness = await subscribe(
        (await m2mCaller(stack, ['products.read'])).clientId,
        ['product.created'],
        '/witness',
      );
      const after = await createProduct(call, admin, { productCode: uniqueCode('GONE'), name: 'After' });
      await receiver.until(
        (received) => at('/witness')(received).some((webhook) => eventOf(webhook).data.id === after.id),
        'the witness event',
      );
      expect(at('/gone')(receiver.received)).toHaveLength(1);
      expect((await deliveries(witness.id)).deliveries).toHaveLength(1);
    } finally {
      receiver.answerWith(() => ({ status: 204 }));
    }
  });

  it("stops a revoked client's subscription at once: what was waiting is cancelled, nothing more is sent", async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/revoked');
    receiver.answerWith((webhook) =>
      webhook.path === '/revoked' ? { status: 503, headers: { 'retry-after': '2' } } : { status: 204 },
    );
    try {
      await createProduct(call, admin, { productCode: uniqueCode('REV'), name: 'Revoked' });
      await receiver.until((received) => at('/revoked')(received).length >= 1, 'a first attempt');
      expect((await call(`/oauth/clients/${shop.clientId}`, { method: 'DELETE', token: admin })).status).toBe(
        200,
      );
      await createProduct(call, admin, { productCode: uniqueCode('REV'), name: 'After revocation' });
      const log = await eventually(
        () => deliveries(created.id),
        (page) => page.deliveries.every((delivery) => delivery.status === 'cancelled'),
        'the waiting delivery cancelled',
      );
      expect(log.deliveries).toHaveLength(1);
      expect((await subscription(created.id)).state).toBe('client-inactive');
      expect(at('/revoked')(receiver.received)).toHaveLength(1);
    } finally {
      receiver.answerWith(() => ({ status: 204 }));
    }
  });

  it('signs with both secrets while a rotated secret overlaps, so a receiver holding either verifies', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/rotated');
    const rotation = await call(`/admin/webhook-subscriptions/${created.id}/rotate-secret`, {
      method: 'POST',
      token: admin,
      body: { overlapHours: 1 },
    });
    expect(rotation.status, rotation.text).toBe(200);
    const { secret } = rotation.body as { secret: string };
    expect(secret).not.toBe(created.secret);
    await createProduct(call, admin, { productCode: uniqueCode('ROT'), name: 'Rotated' });
    await receiver.until((received) => at('/rotated')(received).length >= 1, 'the event');
    const [webhook] = at('/rotated')(receiver.received) as [ReceivedWebhook];
    expect(String(webhook.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook({ headers: webhook.headers, body: webhook.body }, created.secret).type).toBe(
      'product.created',
    );
    expect(verifyWebhook({ headers: webhook.headers, body: webhook.body }, secret).type).toBe(
      'product.created',
    );
  });

  it('does not follow a redirect: the attempt fails and the redirect target receives nothing', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const created = await subscribe(shop.clientId, ['product.created'], '/moved');
    receiver.answerWith((webhook) =>
      webhook.path === '/moved'
        ? { status: 302, headers: { location: receiver.url('/target') } }
        : { status: 204 },
    );
    try {
      await createProduct(call, admin, { productCode: uniqueCode('MOVED'), name: 'Moved' });
      const log = await eventually(
        () => deliveries(created.id),
        (page) => (page.deliveries[0]?.attempts ?? 0) >= 1,
        'a first attempt',
      );
      expect(log.deliveries[0]?.lastStatusCode).toBe(302);
      expect(log.deliveries[0]?.lastError).toMatch(/redirect/i);
      expect(at('/target')(receiver.received)).toHaveLength(0);
    } finally {
      receiver.answerWith(() => ({ status: 204 }));
    }
  });
});
