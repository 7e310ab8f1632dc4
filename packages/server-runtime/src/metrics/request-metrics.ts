import type { Context, Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import { statusClass } from './status-class.ts';

/** Operation label of a request no route claims (404s, scans): raw paths would be unbounded. */
export const UNMATCHED_OPERATION = 'unmatched';

// Seconds: from a cached lookup (a few ms) to a search that ran into its time budget (5 s).
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The status the caller got: Koa's, or the raw response's when a mounted app wrote it (ctx.respond = false). */
const answeredStatus = (ctx: Context) => (ctx.respond === false ? ctx.res.statusCode : ctx.status);

/** What Koa answers for an error that leaves every middleware. */
function statusOfError(error: unknown): number {
  const status =
    (error as { status?: unknown; statusCode?: unknown }).status ??
    (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/**
 * Counts and times every request by operation (a bounded name such as an operationId, never the
 * raw path) and status class. Goes first, so throttled and refused requests are counted too; the
 * operation is read once the request is answered, when the router has matched it.
 */
export function requestMetrics(registry: Registry, operationOf: (ctx: Context) => string): Middleware {
  const labelNames = ['operation', 'status_class'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by operation and status class.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by operation and status class.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return async (ctx, next) => {
    const started = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      status = statusOfError(error);
      throw error;
    } finally {
      const labels = {
        operation: operationOf(ctx),
        status_class: statusClass(status ?? answeredStatus(ctx)),
      };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    }
  };
}
