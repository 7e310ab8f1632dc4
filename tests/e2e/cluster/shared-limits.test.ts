// Spec 8 on the cluster, with the documented limits (50 requests/second sustained, 100 in a burst,
// 1,000 per address in any 5 minutes): both API instances behind nginx spend one budget, counted in
// Redis; the SDK's syncs get through it by honouring Retry-After; and a Redis outage degrades the
// limits as README "Limits across instances" documents (each instance on its own, never a 5xx),
// shared again once Redis answers.
//
// Callers come from loopback addresses of their own (callers.ts), each block of addresses used by
// one test, so that one test's per-IP windows are not another's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCatalogClient, createFileCheckpointStore, type SyncReport, sync } from '@catalog/sdk';
import { scrapeMetrics } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addresses,
  pacedLoad,
  type Sample,
  SourceAddresses,
  throttleWindows,
  timedGet,
} from '../support/load-callers.ts';
import { report } from '../support/settings.ts';
import { clusterStack, type E2EStack } from '../support/stack.ts';
import { type Cluster, startCluster } from './support/cluster.ts';

const RPS = 50;
const BURST = 100;
const IP_LIMIT = 1_000;
const TOLERANCE = 0.05;
/** The throttle's Retry-After is at most a second; the per-IP block's the rest of its 5 minutes. */
const THROTTLE_RETRY_AFTER_MAX = 1;

let cluster: Cluster;
let stack: E2EStack;
let callers: SourceAddresses;
let token: string;
/** nginx's catalog URL by address (the callers' source addresses are IPv4; `localhost` may be ::1). */
let origin: string;

beforeAll(async () => {
  cluster = await startCluster({ demoProducts: 300 });
  stack = clusterStack(cluster);
  callers = new SourceAddresses(cluster.ca);
  origin = cluster.baseUrl.replace('//localhost:', '//127.0.0.1:');
  token = await stack.accessToken(await stack.createClient(['brands.read']), ['brands.read']);
});
afterAll(async () => {
  await callers?.close();
  await stack?.stop();
});

const brands = (address: string, headers: Record<string, string> = {}) =>
  timedGet(callers.from(address), `${origin}/brands`, { authorization: `Bearer ${token}`, ...headers });

/** A counter's value on each API instance, from its metrics listener. */
async function onEachInstance(metric: string): Promise<number[]> {
  return Promise.all(
    cluster.api.map(async (instance) => {
      const url = instance.service().metricsUrl;
      if (url === undefined) throw new Error(`${instance.name} serves no metrics`);
      return (await scrapeMetrics(url)).value(metric);
    }),
  );
}

const accepted = (samples: readonly Sample[]) => samples.filter((sample) => sample.status === 200).length;

/** Every answer is 200, or the throttle's or the window's 429 with only a message and a Retry-After. */
function expectAcceptedOrLimited(samples: readonly Sample[]): void {
  const statuses = new Set(samples.map((sample) => sample.status));
  expect([...statuses].filter((status) => status !== 200 && status !== 429)).toEqual([]);
  for (const sample of samples.filter((refused) => refused.status === 429).slice(0, 50)) {
    expect(JSON.parse(sample.body)).toEqual({ message: 'Too many requests' });
    expect(sample.retryAfter).toBeGreaterThanOrEqual(1);
  }
}

/** Both instances served a fair share of `total` requests (nginx balances round robin). */
function expectSpread(before: readonly number[], after: readonly number[], total: number): void {
  const served = after.map((count, index) => count - (before[index] ?? 0));
  report(`requests served by api-1, api-2: ${served.join(', ')}`);
  for (const count of served) expect(count).toBeGreaterThanOrEqual(total * 0.3);
}

describe('[8 Gateway throttle] one budget for every instance', () => {
  it('[8 Gateway throttle][8 Retry-After][7.1 429] twice the throttle (100 requests/second from 20 addresses), spread by nginx over both instances: 50 per second accepted in aggregate within 5%, the windows holding the 100-request burst left out; every refusal 429 with Retry-After; Redis decided every request', async () => {
    const from = addresses(1, 20);
    const [requestsBefore, fallbacksBefore] = await Promise.all([
      onEachInstance('http_requests_total'),
      onEachInstance('catalog_rate_limit_fallbacks_total'),
    ]);
    const samples = await pacedLoad(2 * RPS, 12_000, (i) => brands(from[i % from.length] as string));
    const [requestsAfter, fallbacksAfter] = await Promise.all([
      onEachInstance('http_requests_total'),
      onEachInstance('catalog_rate_limit_fallbacks_total'),
    ]);

    expectAcceptedOrLimited(samples);
    // The first window seen holds the burst allowance (RATE_LIMIT_BURST − RATE_LIMIT_RPS, once a
    // minute) and, with nothing refused in between, the window after it: left out. So is the last,
    // which the end of the load cut short. The rest are whole one-second windows of the one budget.
    const windows = throttleWindows(samples);
    const measured = windows.slice(1, -1);
    const span = ((windows.at(-1)?.start ?? 0) - (windows[1]?.start ?? 0)) / 1000;
    const acceptedInMeasured = measured.reduce((sum, window) => sum + window.accepted, 0);
    const rate = acceptedInMeasured / span;
    report(
      `throttle across the cluster: ${accepted(samples)} of ${samples.length} accepted; ${rate.toFixed(2)}/s over ` +
        `${measured.length} windows (${span.toFixed(2)} s); first window ${windows[0]?.accepted}, ` +
        `per window ${measured.map((window) => window.accepted).join(' ')}`,
    );
    expect(measured.length).toBeGreaterThanOrEqual(6);
    // Saturated: more was asked than the budget in every window measured.
    for (const window of measured) expect(window.refused).toBeGreaterThan(0);
    expect(Math.abs(rate - RPS)).toBeLessThanOrEqual(RPS * TOLERANCE);
    // The burst came once: over the whole load, 50 per window touched and the allowance once.
    expect(accepted(samples)).toBeLessThanOrEqual(RPS * (windows.length + 1) + (BURST - RPS));
    expectSpread(requestsBefore, requestsAfter, samples.length);
    expect(fallbacksAfter).toEqual(fallbacksBefore);
  });
});

describe('[8 Per-IP protection] one window per address across the instances', () => {
  it(`[8 Per-IP protection][7.1 429] one address through both instances: its window admits ${IP_LIMIT} within 5% (an X-Forwarded-For it sends itself changes nothing), then 429 with the rest of the 5 minutes as Retry-After; another address is not blocked`, async () => {
    const [address, other] = addresses(2, 2) as [string, string];
    const requestsBefore = await onEachInstance('http_requests_total');
    const samples: Sample[] = [];
    const total = Math.ceil(IP_LIMIT * 1.1);
    const firstSent = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          next += 1;
          // nginx appends the address it sees; the instances count the last entry.
          const forged = `10.${next % 250}.${Math.floor(next / 250)}.1`;
          samples.push(await brands(address, { 'x-forwarded-for': forged }));
        }
      }),
    );
    const requestsAfter = await onEachInstance('http_requests_total');
    expectAcceptedOrLimited(samples);
    const blocked = (sample: Sample) =>
      sample.status === 429 && (sample.retryAfter ?? 0) > THROTTLE_RETRY_AFTER_MAX;
    const counted = samples.filter((sample) => !blocked(sample)).length;
    report(
      `per-IP across the cluster: ${counted} requests counted before the block, ${total - counted} blocked`,
    );
    expect(Math.abs(counted - IP_LIMIT)).toBeLessThanOrEqual(IP_LIMIT * TOLERANCE);
    expectSpread(requestsBefore, requestsAfter, total);

    const after = await brands(address);
    expect(after.status).toBe(429);
    expect(JSON.parse(after.body)).toEqual({ message: 'Too many requests' });
    // Its first requests leave the window (30 slices of 10 s) at least 290 s after they were sent.
    expect(after.retryAfter).toBeGreaterThanOrEqual(290 - Math.ceil((Date.now() - firstSent) / 1000));
    expect(after.retryAfter).toBeLessThanOrEqual(300);
    // Another address is served once the throttle's window this burst filled is over.
    const deadline = Date.now() + 10_000;
    let reply = await brands(other);
    while (
      reply.status === 429 &&
      (reply.retryAfter ?? 0) <= THROTTLE_RETRY_AFTER_MAX &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await brands(other);
    }
    expect(reply.status).toBe(200);
  });
});

describe('[7.4 429] the SDK under the shared throttle', () => {
  it('[7.4 429][8 Retry-After][4.4 step 8] three SDK syncs at once through nginx, asking more than the throttle allows: every 429 retried no sooner than its Retry-After, no sync fails, each gets every product', async () => {
    const credentials = await stack.createClient(['products.read']);
    const from = addresses(3, 3);
    const clients = from.map((address) =>
      createCatalogClient({
        baseUrl: origin,
        authUrl: cluster.authUrl.replace('//localhost:', '//127.0.0.1:'),
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        dispatcher: callers.from(address),
      }),
    );
    const dir = await mkdtemp(join(tmpdir(), 'e2e-cluster-sync-'));
    try {
      const [first] = clients;
      const catalogue = (await first?.products.search({ size: 1 }))?.pagination.total ?? 0;
      const retries: Array<{
        delayMs: number;
        retryAfterMs: number | undefined;
        status: number | undefined;
      }> = [];
      const started = performance.now();
      const runs = await Promise.allSettled(
        clients.map(async (client, index) => {
          const ids = new Set<string>();
          const run: SyncReport = await sync({
            client,
            checkpointStore: createFileCheckpointStore(join(dir, `sync-${index}.json`)),
            // Small pages: many requests, so the three together ask more than 50 a second for seconds.
            pageSize: 5,
            upsert: (products) => {
              for (const product of products) ids.add(product.id);
            },
            onRetry: (event) =>
              retries.push({
                delayMs: event.delayMs,
                retryAfterMs: event.error.retryAfterMs,
                status: event.error.status,
              }),
          });
          return { run, ids };
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const failed = runs.filter((outcome) => outcome.status === 'rejected');
      const pages = runs.reduce(
        (sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value.run.pages : 0),
        0,
      );
      report(
        `SDK syncs through the cluster: ${runs.length - failed.length} of ${runs.length} completed in ${seconds.toFixed(1)} s, ` +
          `${pages} pages, ${retries.length} retries (${retries.filter((retry) => retry.status === 429).length} after a 429)`,
      );
      expect(failed.map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
      for (const outcome of runs) {
        if (outcome.status === 'fulfilled') expect(outcome.value.ids.size).toBe(catalogue);
      }
      // The throttle did bind, and each of its refusals was waited out as it said.
      const limited = retries.filter((retry) => retry.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const retry of limited) {
        expect(retry.retryAfterMs).toBeGreaterThanOrEqual(1_000);
        expect(retry.delayMs).toBeGreaterThanOrEqual(retry.retryAfterMs ?? Number.POSITIVE_INFINITY);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('[8 Gateway throttle] Redis out and back', () => {
  it('[8 Gateway throttle][7.1 429] Redis cut off during load, as a stopped Redis looks: no 5xx, each instance enforces the limits alone (more than one budget gets through, the fallback counted on both); Redis back: one budget again', async () => {
    const from = addresses(4, 30);
    const offered = 3 * RPS;
    const seconds = 5;
    const send = (i: number) => brands(from[i % from.length] as string);
    // One budget admits at most this in `seconds`: RPS in each one-second window touched, the burst once.
    const oneBudget = RPS * (seconds + 1) + (BURST - RPS);

    const fallbacksBefore = await onEachInstance('catalog_rate_limit_fallbacks_total');
    cluster.redis.cut();
    const cut = await pacedLoad(offered, seconds * 1000, send);
    const fallbacksDuringCut = await onEachInstance('catalog_rate_limit_fallbacks_total');
    report(
      `Redis cut: ${accepted(cut)} of ${cut.length} accepted in ${seconds} s (one budget admits at most ${oneBudget})`,
    );
    expectAcceptedOrLimited(cut);
    expect(accepted(cut)).toBeGreaterThan(oneBudget);
    fallbacksDuringCut.forEach((count, index) => {
      expect(count).toBeGreaterThan(fallbacksBefore[index] ?? 0);
    });
    for (const instance of cluster.api)
      expect(instance.service().output()).toContain('rate limits: Redis cannot answer');

    cluster.redis.restore();
    // An instance asks Redis again once a second, on a request: requests keep coming until both
    // have said that Redis answers again.
    const sharedAgain = () =>
      cluster.api.every((instance) => instance.service().output().includes('the limits are shared again'));
    const deadline = Date.now() + 30_000;
    for (let i = 0; !sharedAgain(); i += 1) {
      if (Date.now() > deadline) throw new Error('the instances did not go back to Redis within 30 s');
      await send(i);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fallbacksRestored = await onEachInstance('catalog_rate_limit_fallbacks_total');
    const restored = await pacedLoad(offered, seconds * 1000, send);
    report(`Redis back: ${accepted(restored)} of ${restored.length} accepted in ${seconds} s`);
    expectAcceptedOrLimited(restored);
    expect(accepted(restored)).toBeLessThanOrEqual(oneBudget);
    expect(await onEachInstance('catalog_rate_limit_fallbacks_total')).toEqual(fallbacksRestored);
  });
});
