import { readFile } from 'node:fs/promises';
import type { StorageLocation, WebhookStore } from '@catalog/store';
import type { Logger } from 'pino';
import type { WebhookConfig } from '../config/config.ts';
import { createGuardedAgent } from './delivery/guarded-dispatcher.ts';
import { nextRetryDelayMs } from './delivery/retry-schedule.ts';
import { createWebhookSender } from './delivery/send-webhook.ts';
import { openingSecrets, webhookSecretSealingKey } from './delivery/webhook-secret-sealing.ts';
import type { WebhookDeliveryObserver } from './delivery-observer.ts';
import { CLAIM_WINDOW, MAX_HELD, WebhookDeliveryWorker } from './delivery-worker.ts';
import { openDeliveryOutbox } from './outbox/open-delivery-outbox.ts';

/** A claim outlives its slowest attempts (connect and response time-outs) by this much before another instance takes it. */
const LEASE_MARGIN_MS = 10_000;

/** The delivery worker as configured, started; `stop` waits for the attempts under way. */
export async function startWebhookDelivery(options: {
  config: WebhookConfig;
  /** Where the records are: the outbox opens a connection of its own there (the embedded database). */
  location: StorageLocation;
  store: WebhookStore;
  secretPepper: Uint8Array;
  observer: WebhookDeliveryObserver;
  logger: Logger;
}): Promise<{ stop(): Promise<void> }> {
  const { config } = options;
  if (!config.deliver) return { stop: async () => undefined };
  const policy = { allowPrivateNetworks: config.allowPrivateNetworks };
  const dispatcher = createGuardedAgent({
    policy,
    caCertificates: config.caFile === undefined ? [] : [await readFile(config.caFile, 'utf8')],
    connectTimeoutMs: config.connectTimeoutMs,
    responseTimeoutMs: config.responseTimeoutMs,
    // The worker bounds the attempts to each subscription; several subscriptions may share a host,
    // and an attempt queued in the pool behind theirs would wait outside its lease's reckoning.
    connectionsPerOrigin: MAX_HELD,
  });
  const sender = createWebhookSender({ dispatcher, policy });
  const outbox = await openDeliveryOutbox(options.location, options.store);
  const worker = new WebhookDeliveryWorker({
    outbox,
    send: (message) => sender.send(message),
    retryDelay: (failedAttempts, retryAfterMs) =>
      nextRetryDelayMs(failedAttempts, retryAfterMs, Math.random, config.retryScheduleMs),
    unseal: openingSecrets(webhookSecretSealingKey(options.secretPepper)),
    observer: options.observer,
    logger: options.logger.child({ component: 'webhook-delivery' }),
    concurrencyPerEndpoint: config.concurrencyPerEndpoint,
    pollMs: config.pollMs,
    leaseMs: CLAIM_WINDOW * (config.connectTimeoutMs + config.responseTimeoutMs) + LEASE_MARGIN_MS,
    logRetentionMs: config.logRetentionDays * 24 * 60 * 60 * 1000,
  });
  worker.start();
  return {
    async stop() {
      await worker.stop();
      await outbox.close();
      await dispatcher.close();
    },
  };
}
