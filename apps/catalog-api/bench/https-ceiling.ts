import { createGuardedAgent } from '../src/webhooks/delivery/guarded-dispatcher.ts';
import { createWebhookSender } from '../src/webhooks/delivery/send-webhook.ts';
import { generateWebhookSecret } from '../src/webhooks/delivery/sign-webhook.ts';

/**
 * The deliveries a second this machine can make at all: the API's own sender (signing, the guarded
 * pool) posting `messages` events to the bench's receiver from this process, as many at once as the
 * worker allows over `endpoints` subscriptions, with no database, outbox or writer. The webhook
 * bench's delivery figures are read against it: what the outbox adds, and what the machine allows.
 */
export async function measureHttpsCeiling(options: {
  port: number;
  ca: string;
  endpoints: number;
  perEndpoint: number;
  messages: number;
}): Promise<{ perSecond: number }> {
  const policy = { allowPrivateNetworks: true };
  const dispatcher = createGuardedAgent({
    policy,
    caCertificates: [options.ca],
    connectTimeoutMs: 10_000,
    responseTimeoutMs: 10_000,
    connectionsPerOrigin: options.perEndpoint,
  });
  const sender = createWebhookSender({ dispatcher, policy });
  const secret = generateWebhookSecret();
  let next = 0;
  const lane = async () => {
    while (next < options.messages) {
      const i = next++;
      const timestamp = new Date();
      const at = timestamp.toISOString();
      const outcome = await sender.send({
        url: `https://localhost:${options.port}/ceiling/${i % options.endpoints}`,
        messageId: `msg_ceiling_${i}`,
        timestamp,
        body: JSON.stringify({
          type: 'product.changed',
          timestamp: at,
          data: { id: `P${i}`, updatedAt: at },
        }),
        secrets: [secret],
      });
      if (outcome.kind !== 'delivered') throw new Error(`ceiling run: ${outcome.error ?? outcome.kind}`);
    }
  };
  const startedAt = performance.now();
  try {
    await Promise.all(Array.from({ length: options.endpoints * options.perEndpoint }, lane));
  } finally {
    await dispatcher.close();
  }
  return { perSecond: options.messages / ((performance.now() - startedAt) / 1000) };
}
