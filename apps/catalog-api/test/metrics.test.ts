import { rawRequest, scrapeMetrics } from '@catalog/server-runtime/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.ts';

// The catalog API's Prometheus metrics, scraped from its real metrics listener (a separate loopback
// port) and read with a real text-format parser: each counter moves by exactly the requests made.

const metricsUrlOf = (stack: Stack) => {
  const url = stack.api.metricsUrl;
  if (url === undefined) throw new Error('the API announced no metrics URL');
  return url;
};

/** Polls (bounded) until a timer-driven counter reaches `atLeast`. */
async function eventually(read: () => Promise<number>, atLeast: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await read();
    if (value >= atLeast) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

describe('metrics of a running API', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demoProducts: 30 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('counts each request once by operationId and status class, unknown paths as "unmatched"', async () => {
    const { token } = await stack.m2mToken(['products.read']);
    const before = await scrapeMetrics(metricsUrlOf(stack));
    for (let i = 0; i < 3; i += 1) {
      expect((await stack.call('/products/search?size=5', { token })).status).toBe(200);
    }
    for (let i = 0; i < 2; i += 1) {
      expect((await stack.call('/products/NO-SUCH-PRODUCT', { token })).status).toBe(404);
    }
    expect((await stack.call('/products/search')).status).toBe(401);
    expect((await stack.call('/wp-admin/setup.php')).status).toBe(404);
    expect((await stack.call('/health')).status).toBe(200);
    expect((await stack.call('/ready')).status).toBe(200);
    const after = await scrapeMetrics(metricsUrlOf(stack));

    const moved = (labels: Record<string, string>) =>
      after.value('http_requests_total', labels) - before.value('http_requests_total', labels);
    expect(moved({ operation: 'searchProducts', status_class: '2xx' })).toBe(3);
    expect(moved({ operation: 'searchProducts', status_class: '4xx' })).toBe(1);
    expect(moved({ operation: 'getProduct', status_class: '4xx' })).toBe(2);
    expect(moved({ operation: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(moved({ operation: 'health', status_class: '2xx' })).toBe(1);
    expect(moved({ operation: 'ready', status_class: '2xx' })).toBe(1);
    expect(moved({})).toBe(9);
    // The latency histogram saw the same requests.
    const timed = (labels: Record<string, string>) =>
      after.value('http_request_duration_seconds', labels) -
      before.value('http_request_duration_seconds', labels);
    expect(timed({ operation: 'searchProducts', status_class: '2xx' })).toBe(3);
    expect(timed({})).toBe(9);
    // The first search reached the engine (text-less searches are "browse"); the two repeats of the
    // same page, with nothing written in between, were answered from the page cache.
    const searched =
      after.value('catalog_search_duration_seconds', { kind: 'browse' }) -
      before.value('catalog_search_duration_seconds', { kind: 'browse' });
    const cached =
      after.value('catalog_search_page_cache_hits_total') -
      before.value('catalog_search_page_cache_hits_total');
    expect({ searched, cached }).toEqual({ searched: 1, cached: 2 });
  });

  it('labels no raw path, client id or query: only operationIds and fixed words', async () => {
    const { clientId, token } = await stack.m2mToken(['products.read']);
    await stack.call('/products/search?q=cordless', { token });
    await stack.call(`/products/${clientId}`, { token });
    const text = (await rawRequest(metricsUrlOf(stack))).body;
    expect(text).not.toContain(clientId);
    expect(text).not.toContain('cordless');
    expect(text).not.toContain('/products');
    const scrape = await scrapeMetrics(metricsUrlOf(stack));
    const operations = new Set(
      scrape.families.get('http_requests_total')?.metrics.map((sample) => sample.labels?.operation),
    );
    for (const operation of operations) expect(operation).toMatch(/^[a-zA-Z]+$/);
    expect(scrape.value('catalog_search_duration_seconds', { kind: 'text' })).toBeGreaterThanOrEqual(1);
  });

  it('exposes the worker pool gauges, usage flushes and the default process metrics, event-loop delay included', async () => {
    const { token } = await stack.m2mToken(['products.read']);
    const flushes = async () =>
      (await scrapeMetrics(metricsUrlOf(stack))).value('catalog_usage_flushes_total', { outcome: 'ok' });
    const flushedBefore = await flushes();
    expect((await stack.call('/products/search', { token })).status).toBe(200);
    // USAGE_FLUSH_MS is 100 in the test stack: the call's count is written by the next flush.
    expect(await eventually(flushes, flushedBefore + 1)).toBeGreaterThan(flushedBefore);
    const scrape = await scrapeMetrics(metricsUrlOf(stack));
    expect(scrape.families.get('catalog_search_queue_depth')?.type).toBe('GAUGE');
    expect(scrape.value('catalog_search_queue_depth')).toBe(0);
    expect(scrape.value('catalog_search_workers_busy')).toBe(0);
    expect(scrape.value('catalog_search_workers')).toBeGreaterThanOrEqual(1);
    expect(scrape.families.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(scrape.families.has('process_cpu_seconds_total')).toBe(true);
  });

  it('never serves /metrics on the public port', async () => {
    const reply = await stack.call('/metrics');
    expect(reply.status).toBe(404);
    expect(reply.text).not.toContain('http_requests_total');
  });

  it('binds the metrics listener to loopback, on a port of its own, serving /metrics only', async () => {
    const url = new URL(metricsUrlOf(stack));
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.protocol).toBe('http:');
    expect(url.port).not.toBe(new URL(stack.api.url).port);
    expect((await rawRequest(`${url.origin}/health`)).status).toBe(404);
    expect((await rawRequest(`${url.origin}/`)).status).toBe(404);
  });
});

describe('metrics of refusals', () => {
  let stack: Stack | undefined;
  afterEach(async () => {
    await stack?.stop();
    stack = undefined;
  });

  it('counts 429s by limiter and search time-outs by query kind, each exactly once', async () => {
    // A 1 ms budget: the first search (which starts the workers) runs out of time for certain.
    stack = await startStack({
      demoProducts: 30,
      env: { SEARCH_TIMEOUT_MS: '1', RATE_LIMIT_IP_PER_5MIN: '4' },
    });
    const { token } = await stack.m2mToken(['products.read']);
    const url = metricsUrlOf(stack);
    const before = await scrapeMetrics(url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await stack.call('/products/search?q=drill', { token })).status);
    const after = await scrapeMetrics(url);
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    const timedOut = statuses.filter((status) => status === 504).length;
    expect(statuses[0]).toBe(504);
    expect(statuses.slice(4)).toEqual([429, 429]);
    expect(moved('rate_limit_rejections_total', { limiter: 'ip_window' })).toBe(2);
    expect(moved('rate_limit_rejections_total', { limiter: 'gateway_throttle' })).toBe(0);
    expect(moved('catalog_search_timeouts_total', { kind: 'text' })).toBe(timedOut);
    expect(moved('http_requests_total', { operation: 'searchProducts', status_class: '5xx' })).toBe(timedOut);
    expect(moved('http_requests_total', { operation: 'searchProducts', status_class: '4xx' })).toBe(2);
  });
});
