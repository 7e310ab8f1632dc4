import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One registry per server, never prom-client's global one: tests build several apps in one process,
 * and each must count only its own requests. With metrics on it also carries prom-client's default
 * process metrics (CPU, memory, handles, GC, event-loop delay), sampled as the scrape asks.
 */
export function createMetricsRegistry(options: { readonly enabled: boolean }): Registry {
  const registry = new Registry();
  if (options.enabled) collectDefaultMetrics({ register: registry });
  return registry;
}
