import { readFile } from 'node:fs/promises';
import type { WebhookStore } from '@catalog/store';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../config/config.ts';
import { createGuardedAgent } from './delivery/guarded-dispatcher.ts';
import { nextRetryDelayMs } from './delivery/retry-schedule.ts';
import { createWebhookSender } from './delivery/send-webhook.ts';
import { unsealWebhookSecret, webhookSecretSealingKey } from './delivery/webhook-secret-sealing.ts';
import type { WebhookDeliveryObserver } from './delivery-observer.ts';
import { WebhookDeliveryWorker } from './delivery-worker.ts';

/** A claim outlives the slowest attempt (connect and response time-outs) by this much before another instance takes it. */
const LEASE_MARGIN_MS = 10_000;

/** The delivery worker as configured, started; `stop` waits for the attempts under way. */
export async function startWebhookDelivery(options: {
  config: WebhookConfig;
  store: WebhookStore;
  secretPepper: Uint8Array;
  observer: WebhookDeliveryObserver;
  logger: Logger;
}): Promise<{ stop(): Promise<void> }> {
  const { config } = options;
  const policy = { allowPrivateNetworks: config.allowPrivateNetworks };
  const dispatcher = createGuardedAgent({
    policy,
    caCertificates: config.caFile === undefined ? [] : [await readFile(config.caFile, 'utf8')],
    connectTimeoutMs: config.connectTimeoutMs,
    responseTimeoutMs: config.responseTimeoutMs,
    connectionsPerOrigin: config.concurrencyPerEndpoint,
  });
  const sender = createWebhookSender({ dispatcher, policy });
  const sealingKey = webhookSecretSealingKey(options.secretPepper);
  const worker = new WebhookDeliveryWorker({
    store: options.store,
    send: (message) => sender.send(message),
    retryDelay: (failedAttempts, retryAfterMs) =>
      nextRetryDelayMs(failedAttempts, retryAfterMs, Math.random, config.retryScheduleMs),
    unseal: (sealed, subscriptionId) => unsealWebhookSecret(sealed, sealingKey, subscriptionId),
    observer: options.observer,
    logger: options.logger.child({ component: 'webhook-delivery' }),
    concurrencyPerEndpoint: config.concurrencyPerEndpoint,
    pollMs: config.pollMs,
    leaseMs: config.connectTimeoutMs + config.responseTimeoutMs + LEASE_MARGIN_MS,
  });
  if (config.deliver) worker.start();
  return {
    async stop() {
      await worker.stop();
      await dispatcher.close();
    },
  };
}
