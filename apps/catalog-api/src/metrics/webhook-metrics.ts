import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptCount, WebhookDeliveryObserver } from '../webhooks/delivery-observer.ts';

// Seconds: a loopback answer (~1 ms) up to the response time-out (10 s) and past it.
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Seconds from the commit of a change to its delivery: the poll (0.25 s) up to a retry hours later.
const LATENCY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400];

/** The webhook worker's metrics in the API's registry. Labels are the fixed outcomes: never a URL or a client. */
export function webhookDeliveryMetrics(registry: Registry): WebhookDeliveryObserver {
  const registers = [registry];
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (failed: an event given up on after its retries, or refused by the endpoint policy).',
    labelNames: ['outcome'],
    registers,
  });
  for (const outcome of ['delivered', 'retry', 'gone', 'failed'] satisfies AttemptCount[])
    deliveries.inc({ outcome }, 0);
  const attemptDuration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Time of one delivery attempt, connection and response included.',
    buckets: ATTEMPT_BUCKETS,
    registers,
  });
  const latency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: 'Time from the commit of a change to the delivery of its event (retries included).',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  return {
    attemptSettled: (outcome, seconds) => {
      deliveries.inc({ outcome });
      attemptDuration.observe(seconds);
    },
    eventDelivered: (seconds) => latency.observe(seconds),
    watchQueue: (read) => {
      new Gauge({
        name: 'webhook_queue_depth',
        help: 'Webhook deliveries waiting or under way (every instance: the outbox is shared).',
        registers,
        async collect() {
          this.set((await read()).pending);
        },
      });
      new Gauge({
        name: 'webhook_feed_backlog',
        help: 'Change-feed entries not yet turned into webhook deliveries.',
        registers,
        async collect() {
          this.set((await read()).feedBacklog);
        },
      });
    },
  };
}
