// W3C trace context from the SDK to both real servers: one trace per logical operation (a call with
// its retries, a sync run), read back from the servers' own request lines.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LogLine, logLines, runToExit, waitForLogLine } from '@catalog/server-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogClient,
  type CheckpointStore,
  ConfigurationError,
  createCatalogClient,
  type SyncState,
  sync,
} from '../src/index.ts';
import { type FaultProxy, faults, startFaultProxy } from './support/fault-proxy.ts';
import { clientFor, FAST_RETRY, memorySink } from './support/sdk.ts';
import { type Stack, startStack } from './support/stack.ts';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const hex = (length: number) =>
  Array.from({ length }, () => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('');
/** A caller's traceparent (its trace id never all zero). */
const callerTraceparent = () => ({ traceId: `1${hex(31)}`, parentId: `1${hex(15)}` });

let stack: Stack;
let proxy: FaultProxy;
const clients: CatalogClient[] = [];

beforeAll(async () => {
  stack = await startStack({ demoProducts: 250 });
  const tls = join(stack.dataDir, 'tls');
  proxy = await startFaultProxy({
    tls: {
      key: await readFile(join(tls, 'server-key.pem'), 'utf8'),
      cert: await readFile(join(tls, 'server.pem'), 'utf8'),
    },
    upstream: { url: stack.baseUrl, ca: stack.ca },
  });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await proxy?.close();
  await stack?.stop();
});

async function freshClient(overrides: Parameters<typeof clientFor>[1] = {}): Promise<CatalogClient> {
  const client = await clientFor(stack, overrides);
  clients.push(client);
  return client;
}

function memoryCheckpoints(): CheckpointStore {
  let state: SyncState = { checkpoint: null, progress: null };
  return {
    load: async () => state,
    saveProgress: async (progress) => {
      state = { ...state, progress };
    },
    clearProgress: async () => {
      state = { ...state, progress: null };
    },
    commit: async (checkpoint) => {
      state = { checkpoint, progress: null };
    },
  };
}

const requestLines = (lines: LogLine[], traceId: string) =>
  lines.filter((line) => line.msg === 'request' && line.traceId === traceId);

/** The API's request lines of a trace, once `count` of them are written. */
async function apiLines(traceId: string, count: number): Promise<LogLine[]> {
  await waitForLogLine(stack.api, () => requestLines(logLines(stack.api), traceId).length >= count);
  return requestLines(logLines(stack.api), traceId);
}

describe('trace context of the SDK’s requests', () => {
  it('a sync run is one trace: every request line of the run on the API, and the token request it needed on the token server, carry the run’s trace id', async () => {
    const client = await freshClient();
    const sink = memorySink();
    const report = await sync({ client, checkpointStore: memoryCheckpoints(), upsert: sink.upsert });
    expect(sink.rows.size).toBe((await stack.liveProductIds()).length);
    expect(report.pages).toBeGreaterThan(1);
    expect(report.traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    const lines = await apiLines(report.traceId, report.pages);
    expect(lines).toHaveLength(report.pages);
    for (const line of lines) expect(String(line.url)).toMatch(/^\/products\/search\?/);
    // Each request has a parent id of its own.
    expect(new Set(lines.map((line) => line.parentSpanId)).size).toBe(report.pages);
    const token = await waitForLogLine(
      stack.auth,
      (line) => line.msg === 'request' && line.traceId === report.traceId,
    );
    expect(token.url).toBe('/oauth2/token');

    // The next run is another trace.
    const again = await sync({ client, checkpointStore: memoryCheckpoints(), upsert: () => undefined });
    expect(again.traceId).not.toBe(report.traceId);
  });

  it('uses the caller’s trace id for a sync run and for a single call, each request with a new parent id', async () => {
    const client = await freshClient();
    const run = callerTraceparent();
    const report = await sync({
      client,
      checkpointStore: memoryCheckpoints(),
      upsert: () => undefined,
      traceparent: `00-${run.traceId}-${run.parentId}-01`,
    });
    expect(report.traceId).toBe(run.traceId);
    const lines = await apiLines(run.traceId, report.pages);
    expect(lines).toHaveLength(report.pages);
    for (const line of lines) expect(line.parentSpanId).not.toBe(run.parentId);

    const call = callerTraceparent();
    await client.brands.list({}, { traceparent: `00-${call.traceId}-${call.parentId}-00` });
    const [line] = await apiLines(call.traceId, 1);
    expect(line?.url).toBe('/brands');
    // brands needed a token of its own: that request joined the call's trace.
    const token = await waitForLogLine(
      stack.auth,
      (entry) => entry.msg === 'request' && entry.traceId === call.traceId,
    );
    expect(token.url).toBe('/oauth2/token');
  });

  it('gives each call without a traceparent a trace of its own', async () => {
    const client = await freshClient();
    const traceIds: string[] = [];
    const hooked = await freshClient({ hooks: { onRequest: (event) => traceIds.push(event.traceId) } });
    await client.products.search({ size: 1 });
    await hooked.products.search({ size: 1 });
    await hooked.products.search({ size: 1 });
    expect(traceIds).toHaveLength(3); // the token request, then the two searches
    const [tokenTrace, first, second] = traceIds;
    expect(tokenTrace).toBe(first);
    expect(second).not.toBe(first);
    for (const traceId of [first, second]) {
      expect(await apiLines(String(traceId), 1)).toHaveLength(1);
    }
  });

  it('an iteration over pages is one trace: every page request of searchPages and brands.searchAll', async () => {
    const traceIds: string[] = [];
    const client = await freshClient({ hooks: { onRequest: (event) => traceIds.push(event.traceId) } });
    let pages = 0;
    for await (const _page of client.products.searchPages({ size: 100 })) pages += 1;
    expect(pages).toBeGreaterThan(1);
    expect(new Set(traceIds).size).toBe(1);
    const [traceId] = traceIds;
    expect(await apiLines(String(traceId), pages)).toHaveLength(pages);

    traceIds.length = 0;
    const call = callerTraceparent();
    for await (const _brand of client.brands.searchAll(
      { size: 1 },
      { traceparent: `00-${call.traceId}-${call.parentId}-01` },
    ));
    expect(traceIds.length).toBeGreaterThan(2);
    expect(new Set(traceIds)).toEqual(new Set([call.traceId]));
  });

  it('retries of one call keep its trace id, each attempt with a new parent id; the attempt that reached the API is the one it logs', async () => {
    const traceIds: string[] = [];
    const client = createCatalogClient({
      baseUrl: proxy.url,
      authUrl: stack.authUrl,
      ...(await stack.credentials()),
      ca: stack.ca,
      retry: FAST_RETRY,
      pacing: false,
      hooks: { onRetry: (event) => traceIds.push(event.traceId) },
    });
    clients.push(client);
    await client.accessToken();
    const from = proxy.seen.length;
    proxy.queue('/products/search', faults.searchIncomplete(), faults.reset());
    await client.products.search({ size: 1 });
    const attempts = proxy.seen
      .slice(from)
      .map((request) => TRACEPARENT.exec(String(request.headers.traceparent)));
    expect(attempts).toHaveLength(3);
    const [traceId] = new Set(attempts.map((match) => match?.[1]));
    expect(new Set(attempts.map((match) => match?.[1])).size).toBe(1);
    expect(new Set(attempts.map((match) => match?.[2])).size).toBe(3);
    expect(traceIds).toEqual([traceId, traceId]);
    const [line] = await apiLines(String(traceId), 1);
    expect(line?.parentSpanId).toBe(attempts[2]?.[2]);
  });

  it('catalog-sync logs the run’s trace id on its “sync started” line, and every request of the run carries it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sdk-trace-'));
    try {
      const credentials = await stack.credentials(['products.read']);
      await writeFile(join(dir, 'ca.pem'), stack.ca);
      const result = await runToExit({
        entry: fileURLToPath(new URL('../src/cli/bin.ts', import.meta.url)),
        args: [
          ...['--base-url', stack.baseUrl, '--auth-url', stack.authUrl, '--client-id', credentials.clientId],
          ...[
            '--ca',
            join(dir, 'ca.pem'),
            '--out',
            join(dir, 'out.ndjson'),
            '--checkpoint',
            join(dir, 'state.json'),
          ],
        ],
        env: { CATALOG_CLIENT_SECRET: credentials.clientSecret },
      });
      expect(result.code, result.output).toBe(0);
      const started = result.stderr
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.msg === 'sync started');
      const report = JSON.parse(result.stdout);
      expect(started?.traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
      expect(report.traceId).toBe(started.traceId);
      expect(await apiLines(report.traceId, report.pages)).toHaveLength(report.pages);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a caller’s traceparent that is not valid before sending anything', async () => {
    const client = await freshClient();
    const from = proxy.seen.length;
    for (const traceparent of [
      'garbage',
      `00-${'0'.repeat(32)}-${hex(16)}-01`,
      `00-${hex(32).toUpperCase()}-${hex(16)}-01`,
    ]) {
      await expect(client.products.search({ size: 1 }, { traceparent })).rejects.toBeInstanceOf(
        ConfigurationError,
      );
      await expect(
        sync({ client, checkpointStore: memoryCheckpoints(), upsert: () => undefined, traceparent }),
      ).rejects.toBeInstanceOf(ConfigurationError);
    }
    expect(proxy.seen.length).toBe(from);
  });
});
