// The delivery worker as the API starts it (its outbox in a thread of its own on a real SQLite file),
// sending to a real HTTPS endpoint on loopback: how many attempts an endpoint gets at once, how many
// deliveries are claimed for it meanwhile, and the delivery log's retention.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openRecords } from '@catalog/engines';
import { generateClientSecret, hashClientSecret } from '@catalog/server-runtime';
import {
  catalogDatabasePath,
  type RecordStore,
  type StorageLocation,
  type WebhookDeliveryPage,
} from '@catalog/store';
import { aProduct, tempDataDir } from '@catalog/store/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookConfig } from '../../src/config/config.ts';
import { generateWebhookSecret } from '../../src/webhooks/delivery/sign-webhook.ts';
import {
  sealWebhookSecret,
  webhookSecretSealingKey,
} from '../../src/webhooks/delivery/webhook-secret-sealing.ts';
import { startWebhookDelivery } from '../../src/webhooks/start-webhook-delivery.ts';
import { type HttpsReceiver, startHttpsReceiver } from './support/https-receiver.ts';

const PER_ENDPOINT = 2;
const PRODUCTS = 10;
/** Polls for a state on a machine ten times slower than a quiet one. */
const WAIT_MS = 120_000;

let receiver: HttpsReceiver;
let records: RecordStore;
let location: StorageLocation;
const pepper = randomBytes(32);

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  location = { engine: 'sqlite', dataDir: tempDataDir() };
  records = await openRecords(location);
});
afterAll(async () => {
  await records?.close();
  await receiver?.close();
});

async function eventually<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > until) throw new Error(`${what}: not seen within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let serial = 0;

/** A client allowed products.read and its subscription to product.created at `path` of the receiver. */
async function aSubscription(path: string): Promise<string> {
  serial += 1;
  const clientId = `WORKERTESTCLIENT${String(serial).padStart(10, '0')}`;
  await records.clients.create({
    clientId,
    clientName: `worker test ${serial}`,
    scopes: ['products.read'],
    createdBy: { userId: 'test', userName: 'test' },
    expiresAt: null,
    secretHash: hashClientSecret(generateClientSecret(), pepper),
    tokenLifetimeSeconds: 3600,
  });
  const subscriptionId = `WORKERTESTSUBSCRIPTION${String(serial).padStart(4, '0')}`;
  await records.webhooks.createSubscription({
    id: subscriptionId,
    clientId,
    url: `https://localhost:${receiver.port}${path}`,
    description: null,
    eventTypes: ['product.created'],
    enabled: true,
    secretSealed: sealWebhookSecret(generateWebhookSecret(), webhookSecretSealingKey(pepper), subscriptionId),
    createdBy: { userId: 'test', userName: 'test' },
  });
  return subscriptionId;
}

/** The worker as the API starts it, on the test's database, trusting the receiver's CA. */
function startDelivery(overrides: Partial<WebhookConfig> = {}) {
  const caFile = join(location.dataDir, 'receiver-ca.pem');
  writeFileSync(caFile, receiver.ca);
  return startWebhookDelivery({
    config: {
      deliver: true,
      allowPrivateNetworks: true,
      caFile,
      connectTimeoutMs: 60_000,
      responseTimeoutMs: 60_000,
      concurrencyPerEndpoint: PER_ENDPOINT,
      pollMs: 20,
      logRetentionDays: 30,
      retryScheduleMs: undefined,
      ...overrides,
    },
    location,
    store: records.webhooks,
    secretPepper: pepper,
    observer: {
      attemptSettled: () => undefined,
      eventDelivered: () => undefined,
      watchQueue: () => undefined,
    },
    logger: pino({ level: 'silent' }),
  });
}

const allSucceeded = (count: number) => (page: WebhookDeliveryPage) =>
  page.deliveries.length === count && page.deliveries.every((entry) => entry.status === 'succeeded');

describe('webhook delivery worker', () => {
  it('sends an endpoint at most WEBHOOK_CONCURRENCY_PER_ENDPOINT attempts at once, while twice that are claimed for it, and delivers every event', async () => {
    const subscriptionId = await aSubscription('/window');
    // Held until released: the attempts under way stay under way while the test looks.
    let holding = true;
    const held: ServerResponse[] = [];
    let open = 0;
    let mostOpen = 0;
    receiver.answer('/window', (response) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      response.on('close', () => {
        open -= 1;
      });
      if (holding) held.push(response);
      else response.writeHead(204).end();
    });
    for (let i = 0; i < PRODUCTS; i += 1)
      await records.products.create(aProduct({ productCode: `WIN-${i}` }));

    const delivery = await startDelivery();
    try {
      // The claims are committed before their attempts start: once the endpoint holds any, the
      // round's claims are all in the delivery log.
      await eventually(
        async () => held.length,
        (count) => count >= PER_ENDPOINT,
        'attempts held at the endpoint',
      );
      const claimed = await records.webhooks.listDeliveries(subscriptionId, {
        status: 'delivering',
        limit: 200,
      });
      expect(claimed.deliveries).toHaveLength(2 * PER_ENDPOINT);
      expect(held).toHaveLength(PER_ENDPOINT);
      expect(receiver.receivedAt('/window')).toHaveLength(PER_ENDPOINT);

      holding = false;
      for (const response of held.splice(0)) response.writeHead(204).end();
      const log = await eventually(
        () => records.webhooks.listDeliveries(subscriptionId, { limit: 200 }),
        (page) =>
          page.deliveries.length === PRODUCTS &&
          page.deliveries.every((entry) => entry.status === 'succeeded'),
        'every delivery succeeded',
      );
      expect(log.deliveries).toHaveLength(PRODUCTS);
      expect(
        new Set(receiver.receivedAt('/window').map((request) => request.headers['webhook-id'])).size,
      ).toBe(PRODUCTS);
      expect(mostOpen).toBe(PER_ENDPOINT);
    } finally {
      await delivery.stop();
    }
  });

  it('deletes from the delivery log, when it starts, the finished deliveries queued more than WEBHOOK_LOG_RETENTION_DAYS ago, with their attempts, and keeps the newer', async () => {
    const subscriptionId = await aSubscription('/retention');
    for (let i = 0; i < 4; i += 1) await records.products.create(aProduct({ productCode: `RET-${i}` }));
    const first = await startDelivery();
    let delivered: WebhookDeliveryPage;
    try {
      delivered = await eventually(
        () => records.webhooks.listDeliveries(subscriptionId, { limit: 200 }),
        allSucceeded(4),
        'every delivery succeeded',
      );
    } finally {
      await first.stop();
    }
    // Two of them queued 31 days ago, as the database file would say after a month.
    const aged = delivered.deliveries.slice(0, 2).map((entry) => entry.id);
    const db = new DatabaseSync(catalogDatabasePath(location.dataDir));
    try {
      db.prepare(
        'UPDATE webhook_deliveries SET created_at = created_at - 31 * 86400000 WHERE id IN (SELECT value FROM json_each(?))',
      ).run(JSON.stringify(aged));
    } finally {
      db.close();
    }
    const second = await startDelivery({ logRetentionDays: 30 });
    try {
      const kept = await eventually(
        () => records.webhooks.listDeliveries(subscriptionId, { limit: 200 }),
        (page) => page.deliveries.length === 2,
        'the aged deliveries pruned',
      );
      expect(kept.deliveries.map((entry) => entry.id).sort()).toEqual(
        delivered.deliveries
          .slice(2)
          .map((entry) => entry.id)
          .sort(),
      );
      expect(await records.webhooks.listAttempts(aged[0] as string)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
