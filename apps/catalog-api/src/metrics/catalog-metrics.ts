import type { SearchPoolObserver } from '@catalog/search';
import { createMetricsRegistry } from '@catalog/server-runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookDeliveryObserver } from '../webhooks/delivery-observer.ts';
import { webhookDeliveryMetrics } from './webhook-metrics.ts';

/** The API's own limits (spec 8), as the `limiter` label of rate_limit_rejections_total. */
export type ApiLimiter = 'gateway_throttle' | 'ip_window';

// Seconds: a keyset page (~1 ms) up to the default search budget (5 s) and past it.
const SEARCH_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Everything the catalog API counts beyond the per-route request metrics, in the process's own
 * registry. Label values are fixed sets (limiter, search kind, flush outcome): never a client id, a
 * query or a path. `enabled` false (METRICS_ENABLED=false) leaves out the request middleware and the
 * process metrics; the counters below still count, unread, for the cost of an addition.
 */
export class CatalogMetrics {
  readonly registry: Registry;
  readonly enabled: boolean;
  readonly #rateLimitRejections: Counter<'limiter'>;
  readonly #rateLimitFallbacks: Counter;
  readonly #revocationFailOpen: Counter;
  readonly #usageFlushes: Counter<'outcome'>;
  readonly #searchDuration: Histogram<'kind'>;
  readonly #searchTimeouts: Counter<'kind'>;
  readonly #searchIncomplete: Counter<'kind'>;
  readonly #searchPageCacheHits: Counter;
  /** Given to the webhook delivery worker. */
  readonly webhookObserver: WebhookDeliveryObserver;

  constructor(options: { readonly enabled: boolean }) {
    this.enabled = options.enabled;
    this.registry = createMetricsRegistry(options);
    this.webhookObserver = webhookDeliveryMetrics(this.registry);
    const registers = [this.registry];
    this.#rateLimitRejections = new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429 by a rate limit, by limiter.',
      labelNames: ['limiter'],
      registers,
    });
    this.#rateLimitFallbacks = new Counter({
      name: 'catalog_rate_limit_fallbacks_total',
      help: 'Requests whose limits this instance decided alone because Redis (REDIS_URL) could not answer.',
      registers,
    });
    this.#revocationFailOpen = new Counter({
      name: 'catalog_revocation_checks_failed_open_total',
      help: 'M2M requests let through because the revocation check could not read the store (spec 3, 5.8).',
      registers,
    });
    this.#usageFlushes = new Counter({
      name: 'catalog_usage_flushes_total',
      help: 'Writes of the batched per-client usage counts, by outcome (failed: some counts kept for the next flush).',
      labelNames: ['outcome'],
      registers,
    });
    this.#searchDuration = new Histogram({
      name: 'catalog_search_duration_seconds',
      help: 'Time of one search job in the engine, queueing included, by query kind.',
      labelNames: ['kind'],
      buckets: SEARCH_BUCKETS,
      registers,
    });
    this.#searchTimeouts = new Counter({
      name: 'catalog_search_timeouts_total',
      help: 'Searches that ran past SEARCH_TIMEOUT_MS (answered 504 SEARCH_TIMEOUT), by query kind.',
      labelNames: ['kind'],
      registers,
    });
    this.#searchPageCacheHits = new Counter({
      name: 'catalog_search_page_cache_hits_total',
      help: 'Product search pages answered from the page cache (SEARCH_PAGE_CACHE_MB) without a search job.',
      registers,
    });
    this.#searchIncomplete = new Counter({
      name: 'catalog_search_incomplete_total',
      help: 'Searches whose results could not be proven complete (engine failure), by query kind.',
      labelNames: ['kind'],
      registers,
    });
    // Label values known in advance start at 0, so a rate() sees the first rejection.
    for (const limiter of ['gateway_throttle', 'ip_window'] satisfies ApiLimiter[])
      this.#rateLimitRejections.inc({ limiter }, 0);
  }

  rateLimited(limiter: ApiLimiter): void {
    this.#rateLimitRejections.inc({ limiter });
  }

  rateLimitFallback(): void {
    this.#rateLimitFallbacks.inc();
  }

  revocationFailedOpen(): void {
    this.#revocationFailOpen.inc();
  }

  usageFlushed(outcome: 'ok' | 'failed'): void {
    this.#usageFlushes.inc({ outcome });
  }

  /** Given to the store: times each search and reads the worker pool's load when scraped. */
  readonly searchObserver: SearchPoolObserver = {
    watchLoad: (load) => {
      const registers = [this.registry];
      new Gauge({
        name: 'catalog_search_queue_depth',
        help: 'Search jobs accepted and waiting for a worker.',
        registers,
        collect() {
          this.set(load().queued);
        },
      });
      new Gauge({
        name: 'catalog_search_workers_busy',
        help: 'Search worker threads running a job.',
        registers,
        collect() {
          this.set(load().busyWorkers);
        },
      });
      new Gauge({
        name: 'catalog_search_workers',
        help: 'Search worker threads started (the pool size once the first search ran).',
        registers,
        collect() {
          this.set(load().workers);
        },
      });
    },
    pageCacheHit: () => {
      this.#searchPageCacheHits.inc();
    },
    jobSettled: ({ kind, outcome, seconds }) => {
      this.#searchDuration.observe({ kind }, seconds);
      if (outcome === 'timeout') this.#searchTimeouts.inc({ kind });
      else if (outcome === 'incomplete') this.#searchIncomplete.inc({ kind });
    },
  };
}
