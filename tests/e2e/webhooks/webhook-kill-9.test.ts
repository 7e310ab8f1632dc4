// Issue 31: kill -9 of the delivering API in the middle of deliveries loses no event. The outbox is in
// the database: the deliveries claimed by the killed process are taken over when their leases end,
// the others are claimed by the restarted process; the receiver gets every event at least once.
import type { WebhookDeliveryPage, WebhookSubscriptionCreated } from '@catalog/contracts';
import { verifyWebhook } from '@catalog/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, uniqueCode } from '../conformance/support/catalogue.ts';
import { type Call, contractCall } from '../conformance/support/contract.ts';
import { adminToken, m2mCaller } from '../conformance/support/people.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { eventOf, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let stack: E2EStack;
let call: Call;
let admin: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startE2EStack({
    demoProducts: 10,
    env: {
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_POLL_MS: '50',
      // A claim's lease is these time-outs and a margin: the killed process's claims end soon after.
      WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
      WEBHOOK_RESPONSE_TIMEOUT_MS: '1000',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '4',
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

describe('webhooks: kill -9 of the delivering process', () => {
  it('loses no event: claims of the killed process are taken over, the rest are sent by the restarted one', async () => {
    const shop = await m2mCaller(stack, ['products.read']);
    const reply = await call('/admin/webhook-subscriptions', {
      method: 'POST',
      token: admin,
      body: { clientId: shop.clientId, url: receiver.url('/kill'), eventTypes: ['product.created'] },
    });
    expect(reply.status, reply.text).toBe(201);
    const subscription = reply.body as WebhookSubscriptionCreated;
    // The endpoint holds every request: the API is killed with deliveries under way and others waiting.
    receiver.answerWith(() => 'hang');
    const products = [];
    for (let i = 0; i < 12; i += 1)
      products.push(await createProduct(call, admin, { productCode: uniqueCode('KILL'), name: `Kill ${i}` }));
    await receiver.until((received) => received.length >= 4, 'deliveries under way');
    await stack.kill('api');
    receiver.answerWith(() => ({ status: 204 }));
    await stack.restart('api');

    const ids = new Set(products.map((product) => product.id));
    await receiver.until(
      (received) =>
        ids.size ===
        new Set(received.map((webhook) => eventOf(webhook).data.id).filter((id) => ids.has(id))).size,
      'every product event',
    );
    for (const webhook of receiver.received)
      expect(verifyWebhook({ headers: webhook.headers, body: webhook.body }, subscription.secret).type).toBe(
        'product.created',
      );
    const deadline = Date.now() + 120_000;
    let log: WebhookDeliveryPage;
    do {
      log = (
        await call(`/admin/webhook-subscriptions/${subscription.id}/deliveries?limit=50`, { token: admin })
      ).body as WebhookDeliveryPage;
      if (log.deliveries.every((delivery) => delivery.status === 'succeeded')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (Date.now() < deadline);
    expect(log.deliveries).toHaveLength(12);
    expect(log.deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
  });
});
