// Load at the documented limits (spec 8), on the built API with its default limits: the gateway
// throttle (50 requests/second sustained, 100 in a burst, shared by every caller), the per-IP window
// (about 1,000 requests in 5 minutes, then blocked until the window clears), and /health answering
// throughout.
//
// Callers come from many loopback source addresses (127.0.x.y: every one of them is this machine), so
// the shared throttle can be seen without one address running into its own per-IP window.
//
// Only counts and answers are checked, which no machine's speed can change: a fresh burst gets at
// least 100 through (a slower sender only lets more windows open), each refusal is the throttle's 429
// with Retry-After 1 or the window's with the rest of its 5 minutes, exactly 1,000 requests of one
// address are counted (the limiter counts requests, not time), and /health always answers. How many
// requests a second get through is the limiter's own test on an injected clock (catalog-api's
// request-limiter contract, on the default configuration); rates and latencies are for benchmarks.
import { closedLoopLoad } from '@catalog/server-runtime/load';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sample, SourceAddresses, timedGet } from '../support/load-callers.ts';
import { report, settings } from '../support/settings.ts';
import { type E2EStack, startE2EStack } from '../support/stack.ts';

const BURST = 100;
const IP_WINDOW = settings.load.ipWindowLimit;

let stack: E2EStack;
let token: string;
let origin: string;
let pools: SourceAddresses;

const from = (address: string) => pools.from(address);

const call = (dispatcher: Dispatcher, path: string, auth = true): Promise<Sample> =>
  timedGet(dispatcher, `${origin}${path}`, auth ? { authorization: `Bearer ${token}` } : {});

const percentile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** Polls /health from its own address every `everyMs` until `stop` resolves: latencies and statuses. */
async function pollHealth(stop: Promise<unknown>, address: string, everyMs: number) {
  let running = true;
  void stop.finally(() => {
    running = false;
  });
  const samples: Sample[] = [];
  while (running) {
    samples.push(await call(from(address), '/health', false));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return samples;
}

beforeAll(async () => {
  stack = await startE2EStack({ demoProducts: 50, rateLimits: 'default' });
  origin = `https://127.0.0.1:${stack.service('api').port}`;
  pools = new SourceAddresses(stack.ca);
  const credentials = await stack.createClient(['brands.read']);
  token = await stack.accessToken(credentials, ['brands.read']);
});
afterAll(async () => {
  await pools?.close();
  await stack?.stop();
});

describe('load at the documented limits (spec 8)', () => {
  it("[8 Gateway throttle][7.1 429][8 Retry-After] the shared budget over every caller: a fresh burst of 160 from 20 addresses gets at least the 100 of a burst through; every refusal is the throttle's 429 {message} with Retry-After 1; /health is never limited", async () => {
    const callers = Array.from({ length: 20 }, (_, i) => `127.0.1.${i + 21}`);
    // A fresh burst: creating the client above spent a point of the throttle's current one-second
    // window, and the windows restart only after a second without requests (waiting longer only helps).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const burst = await Promise.all(
      Array.from({ length: 160 }, (_, i) => call(from(callers[i % callers.length] ?? ''), '/brands')),
    );
    const burstAccepted = burst.filter((sample) => sample.status === 200).length;
    expect(burstAccepted).toBeGreaterThanOrEqual(BURST);

    // Until the throttle has refused at least 20 (a machine slow enough to spread the burst over
    // several windows sees its refusals here), /health polled meanwhile.
    const samples = [...burst];
    const refusedSoFar = () => samples.filter((sample) => sample.status === 429).length;
    let sent = 0;
    const load = Promise.all(
      callers.map(async (address) => {
        while (refusedSoFar() < 20 && sent < 5_000) {
          sent += 1;
          samples.push(await call(from(address), '/brands'));
        }
      }),
    );
    const health = await pollHealth(load, '127.0.3.3', 20);
    await load;
    const accepted = samples.filter((sample) => sample.status === 200).length;
    report(`shared budget: ${accepted} of ${samples.length} accepted (burst ${burstAccepted} of 160)`);

    const refused = samples.filter((sample) => sample.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(20);
    expect(samples.every((sample) => sample.status === 200 || sample.status === 429)).toBe(true);
    // No address comes near its 1,000: each refusal is the throttle's, whose window is a second.
    for (const sample of refused) {
      expect(JSON.parse(sample.body)).toEqual({ message: 'Too many requests' });
      expect(sample.retryAfter).toBe(1);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((sample) => sample.status === 200)).toBe(true);
  });

  it(`[8 Per-IP protection][7.1 429] one source address gets exactly ${IP_WINDOW} requests, then 429 with Retry-After pointing at when its first requests leave the window; other addresses are not blocked; /health is not counted and stays up`, async () => {
    const address = '127.0.2.1';
    const agent = from(address);
    // Health calls first: they must not count against the window.
    for (let i = 0; i < 30; i += 1) expect((await call(agent, '/health', false)).status).toBe(200);

    const samples: Sample[] = [];
    const firstSent = Date.now();
    const total = Math.ceil(IP_WINDOW * 1.1);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < total) {
          next += 1;
          samples.push(await call(agent, '/brands'));
        }
      }),
    );
    // The gateway throttle answers 429 with Retry-After 1; the per-IP block with the rest of 5 minutes.
    const blocked = (sample: Sample) => sample.status === 429 && (sample.retryAfter ?? 0) > 5;
    const counted = samples.filter((sample) => !blocked(sample)).length;
    report(`per-IP: ${counted} requests before the block, ${samples.length - counted} blocked`);
    // Every request lands well inside one 5-minute window and the limiter counts requests, not time:
    // exactly the allowance gets through, however slowly the machine sends them.
    expect(counted).toBe(IP_WINDOW);
    // Blocked: nothing gets through any more, until the slice of its first requests leaves the
    // window (30 slices of 10 s: at least 290 s after they were sent).
    const after = await call(agent, '/brands');
    expect(after.status).toBe(429);
    expect(JSON.parse(after.body)).toEqual({ message: 'Too many requests' });
    expect(after.retryAfter).toBeGreaterThanOrEqual(290 - Math.ceil((Date.now() - firstSent) / 1000));
    expect(after.retryAfter).toBeLessThanOrEqual(300);
    // Other addresses are not blocked (once the throttle's one-second window this burst filled is over),
    // and /health still answers the blocked one.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await call(from('127.0.2.2'), '/brands')).status).toBe(200);
    expect((await call(agent, '/health', false)).status).toBe(200);
  });

  it('[8 Gateway throttle] /health keeps answering 200 while the API is saturated by a closed-loop load (latency reported, not judged)', async () => {
    // From the default address: its own window runs out at once, then every request is refused
    // cheaply; the server is as busy as a client can make it.
    const load = closedLoopLoad({
      baseUrl: stack.baseUrl,
      ca: stack.ca,
      concurrency: settings.load.concurrency,
      warmupMs: 1_000,
      measureMs: settings.heavy ? 20_000 : 4_000,
      request: { path: '/brands', headers: { authorization: `Bearer ${token}` } },
      expectStatus: 429,
    });
    const health = await pollHealth(load, '127.0.3.2', 20);
    const result = await load;
    const latencies = health.map((sample) => sample.doneAt - sample.sentAt);
    report(
      `saturated: ${result.requestsPerSecond} req/s (p99 ${result.latencyMs.p99} ms); /health ${health.length} calls, ` +
        `p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
    );
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((sample) => sample.status === 200)).toBe(true);
  });
});
