// Spec 8 against the real API with its gateway throttle on: the client's pacing keeps a full sync free of 429s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogClient, sync } from '../src/index.ts';
import { memorySink } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    demoProducts: 300,
    env: { RATE_LIMIT_RPS: '20', RATE_LIMIT_BURST: '20', RATE_LIMIT_IP_PER_5MIN: '0' },
  });
});
afterAll(async () => {
  await stack?.stop();
});

async function pacedClient(pacing: NonNullable<Parameters<typeof createCatalogClient>[0]['pacing']>) {
  const statuses: number[] = [];
  const client = createCatalogClient({
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    ...(await stack.credentials(['products.read'])),
    scopes: ['products.read'],
    ca: stack.ca,
    pacing,
    retry: { maxAttempts: 1 },
    hooks: { onResponse: (event) => statuses.push(event.status) },
  });
  return { client, statuses };
}

describe('spec 8: client-side pacing against the real gateway throttle', () => {
  it('without pacing, a burst over the throttle meets 429 (the limit is real)', async () => {
    const { client, statuses } = await pacedClient(false);
    await Promise.allSettled(Array.from({ length: 60 }, () => client.products.search({ size: 1 })));
    expect(statuses).toContain(429);
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // let the throttle's window clear
  });

  it('paced at the throttle rate, a full sync (size 10, 30+ requests) never meets a 429', async () => {
    const { client, statuses } = await pacedClient({ requestsPerSecond: 20, burst: 1, windowRequests: 0 });
    const sink = memorySink();
    const report = await sync({
      client,
      checkpointStore: {
        load: async () => ({ checkpoint: null, progress: null }),
        saveProgress: async () => undefined,
        clearProgress: async () => undefined,
        commit: async () => undefined,
      },
      upsert: sink.upsert,
      pageSize: 10,
    });
    expect(report.pages).toBeGreaterThan(25);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect([...sink.rows.keys()].sort()).toEqual(await stack.liveProductIds());
    await client.close();
  });
});
