// Issue 31: kill -9 of the delivering API in the middle of deliveries loses no event. The outbox is in
// the database: the deliveries claimed by the killed process are taken over when their leases end,
// the others are claimed by the restarted process; the receiver gets every event at least once.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { contractCall } from '../conformance/support/contract.ts';
import { adminToken } from '../conformance/support/people.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';
import { expectEveryEventDelivered, holdDeliveriesUnderWay } from '../support/webhook-kill-scenario.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const IN_FLIGHT = 4;

let stack: E2EStack;
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
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: String(IN_FLIGHT),
    },
  });
  receiver = await startWebhookReceiver(stack.dataDir);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('webhooks: kill -9 of the delivering process', () => {
  it('loses no event: claims of the killed process are taken over, the rest are sent by the restarted one', async () => {
    const call = contractCall(stack);
    const admin = await adminToken(stack);
    // The endpoint holds every request: the API is killed with deliveries under way and others waiting.
    const held = await holdDeliveriesUnderWay({
      stack,
      call,
      admin,
      receiver,
      path: '/kill',
      products: 12,
      inFlight: IN_FLIGHT,
    });
    await stack.kill('api');
    receiver.answerWith(() => ({ status: 204 }));
    await stack.restart('api');
    await expectEveryEventDelivered(call, admin, receiver, held);
  });
});
