// The kill -9 scenario of issue 31, shared by the server-pair test (webhooks/webhook-kill-9.test.ts)
// and the cluster's (cluster/webhook-takeover.test.ts): deliveries held under way at the receiver
// when a process dies, then every event seen arriving, verified, and settled in the delivery log.
import type { WebhookDeliveryPage, WebhookSubscriptionCreated } from '@catalog/contracts';
import { verifyWebhook } from '@catalog/sdk';
import { expect } from 'vitest';
import { createProduct, uniqueCode } from '../conformance/support/catalogue.ts';
import type { Call } from '../conformance/support/contract.ts';
import { m2mCaller } from '../conformance/support/people.ts';
import type { E2EStack } from './stack.ts';
import { eventOf, type WebhookReceiver } from './webhook-receiver.ts';

export interface HeldDeliveries {
  subscription: WebhookSubscriptionCreated;
  productIds: Set<string>;
}

/**
 * A subscription to `product.created` for a new client, the receiver holding every request, and
 * `products` products written: `inFlight` deliveries under way (the stack's per-endpoint concurrency),
 * the others waiting in the outbox.
 */
export async function holdDeliveriesUnderWay(options: {
  stack: E2EStack;
  call: Call;
  admin: string;
  receiver: WebhookReceiver;
  path: string;
  products: number;
  inFlight: number;
}): Promise<HeldDeliveries> {
  const { call, admin, receiver } = options;
  const shop = await m2mCaller(options.stack, ['products.read']);
  const reply = await call('/admin/webhook-subscriptions', {
    method: 'POST',
    token: admin,
    body: { clientId: shop.clientId, url: receiver.url(options.path), eventTypes: ['product.created'] },
  });
  expect(reply.status, reply.text).toBe(201);
  receiver.answerWith(() => 'hang');
  const productIds = new Set<string>();
  for (let i = 0; i < options.products; i += 1)
    productIds.add(
      (await createProduct(call, admin, { productCode: uniqueCode('KILL'), name: `Kill ${i}` })).id,
    );
  await receiver.until((received) => received.length >= options.inFlight, 'deliveries under way');
  return { subscription: reply.body as WebhookSubscriptionCreated, productIds };
}

/**
 * Waits until every product's event has arrived, checks each signature with the SDK's verifier, and
 * polls the delivery log (the last results may be recorded after the receiver answered them) until
 * every delivery has succeeded.
 */
export async function expectEveryEventDelivered(
  call: Call,
  admin: string,
  receiver: WebhookReceiver,
  { subscription, productIds }: HeldDeliveries,
): Promise<void> {
  await receiver.until(
    (received) =>
      productIds.size ===
      new Set(received.map((webhook) => eventOf(webhook).data.id).filter((id) => productIds.has(id))).size,
    'every product event',
  );
  for (const webhook of receiver.received)
    expect(verifyWebhook({ headers: webhook.headers, body: webhook.body }, subscription.secret).type).toBe(
      'product.created',
    );
  let log: WebhookDeliveryPage;
  for (let poll = 0; ; poll += 1) {
    log = (
      await call(`/admin/webhook-subscriptions/${subscription.id}/deliveries?limit=50`, { token: admin })
    ).body as WebhookDeliveryPage;
    if (log.deliveries.every((delivery) => delivery.status === 'succeeded') || poll >= 600) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(log.deliveries).toHaveLength(productIds.size);
  expect(log.deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
}
