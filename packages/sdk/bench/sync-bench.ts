// pnpm bench (sync part). A full pass of BENCH_PRODUCTS (default 100 000; BENCH_PRODUCTS=1000000 for the
// goal's size) products on loopback with the limits off, run as `catalog-sync` processes (pacing off)
// into NDJSON and into SQLite: products per second, the process's peak RSS, and the ratio to a floor
// measured in the same run (a bare undici loop fetching the same pages one after another, reading each
// body as text and nothing more: what the server and the connection allow). Then, with the default limits on, a full pass of
// BENCH_LIMITED_PRODUCTS (default: the same catalogue) with the default pacing: wall time against the
// bound the limits impose (limitBoundSeconds) and the number of 429s (expected: zero).
// Results also go to .bench/results.json for scripts/performance-report.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Figure, round, writeBenchResults } from '@catalog/bench-results';
import type { Product } from '@catalog/contracts';
import { Agent, request } from 'undici';
import { createCatalogClient, sync } from '../src/index.ts';
import { type Stack, startStack } from '../test/support/stack.ts';

const products = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const limitedProducts = Number(process.env.BENCH_LIMITED_PRODUCTS ?? products);
const skipLimited = process.env.BENCH_SKIP_LIMITED === '1';

function memoryCheckpoints() {
  let state: {
    checkpoint: string | null;
    progress: null | Parameters<Parameters<typeof sync>[0]['checkpointStore']['saveProgress']>[0];
  } = { checkpoint: null, progress: null };
  return {
    load: async () => state,
    saveProgress: async (progress: NonNullable<typeof state.progress>) => {
      state = { ...state, progress };
    },
    clearProgress: async () => {
      state = { ...state, progress: null };
    },
    commit: async (checkpoint: string) => {
      state = { checkpoint, progress: null };
    },
  };
}

/** The default limits of spec 8 the limited pass runs under. */
const LIMITS = { rps: 50, burst: 100, windowLimit: 1000, windowSeconds: 300 };
const LIMITS_TEXT = `${LIMITS.rps} req/s, burst ${LIMITS.burst}, ${LIMITS.windowLimit} per ${LIMITS.windowSeconds / 60} min per IP`;

/**
 * The bound the limits impose on `requests` requests: the time of the last one when each is sent as
 * soon as both limits allow it (responses taking no time), the gateway's token bucket (50/s, 100
 * burst) and the per-IP rolling window (1,000 in any 5 minutes) simulated request by request. A
 * pass of 1,910 requests can finish in about 316 s, not 1,910 ÷ 3.33/s = 573 s: the first window's
 * 1,000 go at the gateway's rate.
 */
function limitBoundSeconds(requests: number): number {
  const sent: number[] = [];
  let tokens = LIMITS.burst;
  let now = 0;
  for (let i = 0; i < requests; i += 1) {
    const windowFrees =
      i >= LIMITS.windowLimit ? (sent[i - LIMITS.windowLimit] as number) + LIMITS.windowSeconds : 0;
    const bucketFrees = tokens >= 1 ? now : now + (1 - tokens) / LIMITS.rps;
    const at = Math.max(now, windowFrees, bucketFrees);
    tokens = Math.min(LIMITS.burst, tokens + (at - now) * LIMITS.rps) - 1;
    now = at;
    sent.push(at);
  }
  return now;
}

/** A new client with only products.read, as an integrator's sync job has: the stack's URLs and CA. */
async function readerOf(stack: Stack) {
  return {
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    ...(await stack.credentials(['products.read'])),
    scopes: ['products.read' as const],
    ca: stack.ca,
  };
}

async function fullPass(stack: Stack, pacing: boolean) {
  const statuses = new Map<number, number>();
  let requests = 0;
  const client = createCatalogClient({
    ...(await readerOf(stack)),
    ...(pacing ? {} : { pacing: false as const }),
    hooks: {
      onResponse: (event) => {
        if (event.url.includes('/products/search')) requests += 1;
        statuses.set(event.status, (statuses.get(event.status) ?? 0) + 1);
      },
    },
  });
  await client.accessToken();
  const rows = new Map<string, string>();
  const started = performance.now();
  const report = await sync({
    client,
    checkpointStore: memoryCheckpoints(),
    upsert: (page: Product[]) => {
      for (const product of page) rows.set(product.id, JSON.stringify(product));
    },
  });
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  return { report, seconds, rows: rows.size, requests, statuses: Object.fromEntries(statuses) };
}

/** The floor: the same pages fetched in order with undici, each body read as text, its cursor sliced out. */
async function floorPass(stack: Stack): Promise<{ seconds: number; pages: number }> {
  const client = createCatalogClient({ ...(await readerOf(stack)), pacing: false });
  const authorization = `Bearer ${await client.accessToken()}`;
  await client.close();
  const dispatcher = new Agent({ connect: { ca: stack.ca } });
  const started = performance.now();
  let pages = 0;
  let syncToken: string | null = null;
  do {
    const url = new URL('products/search', `${stack.baseUrl}/`);
    url.searchParams.set('updatedAfter', '1970-01-01T00:00:00Z');
    url.searchParams.set('size', '100');
    if (syncToken !== null) url.searchParams.set('syncToken', syncToken);
    const response = await request(url, { dispatcher, headers: { authorization } });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`floor: status ${response.statusCode}`);
    pages += 1;
    const at = text.lastIndexOf('"syncToken":');
    const value = text.slice(at + '"syncToken":'.length, text.indexOf(',', at));
    syncToken = value === 'null' ? null : (JSON.parse(value) as string);
  } while (syncToken !== null);
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.close();
  return { seconds, pages };
}

const reportRss = fileURLToPath(new URL('report-rss.ts', import.meta.url));
const bin = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));

/** The built bin (what users run); built first when missing or older than the sources. */
function ensureBuilt(): void {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
        entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
      ),
    );
  const built = existsSync(bin) ? statSync(bin).mtimeMs : 0;
  if (built < newest(fileURLToPath(new URL('../src', import.meta.url)))) {
    out('  building the package (dist/ is missing or older than src/)');
    execFileSync('pnpm', ['run', 'build'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: 'ignore',
    });
  }
}

/** One `catalog-sync --full` process with pacing off into `out`: its report, wall time and peak RSS. */
async function cliPass(stack: Stack, dir: string, out: string) {
  const { clientId, clientSecret } = await stack.credentials(['products.read']);
  const caPath = join(dir, 'ca.pem');
  writeFileSync(caPath, stack.ca);
  const args = [
    ...['--import', reportRss, bin],
    ...['--base-url', stack.baseUrl, '--auth-url', stack.authUrl, '--client-id', clientId, '--ca', caPath],
    ...['--out', join(dir, out), '--checkpoint', join(dir, `${out}.checkpoint.json`), '--full'],
    ...['--requests-per-second', '0', '--requests-per-5-min', '0', '--no-progress', '--log-level', 'warn'],
  ];
  const rssFile = join(dir, `${out}.rss.json`);
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, CATALOG_CLIENT_SECRET: clientSecret, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`catalog-sync into ${out} exited ${code}: ${stderr}`);
  const reportLine = stdout.trim().split('\n').at(-1);
  const rssLine = readFileSync(rssFile, 'utf8').trim();
  const report = JSON.parse(reportLine ?? '{}') as {
    productsUpserted: number;
    pages: number;
    durationMs: number;
  };
  const { maxRssBytes } = JSON.parse(rssLine ?? '{}') as { maxRssBytes: number };
  return { report, seconds: report.durationMs / 1000, wallSeconds, maxRssBytes };
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const figures: Figure[] = [];
const nonOk = (statuses: Record<string, number>) =>
  Object.entries(statuses).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0);

let stack: Stack;
if (process.env.BENCH_SKIP_UNLIMITED !== '1') {
  out(`sync bench: ${products} products, limits off`);
  stack = await startStack({ demoProducts: products });
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'sync-bench-'));
  try {
    const floor = await floorPass(stack);
    out(
      `  floor (undici, body as text, pages in order): ${floor.pages} pages in ${floor.seconds.toFixed(2)} s`,
    );
    const group = 'limits off, no pacing';
    for (const [label, file] of [
      ['NDJSON', 'out.ndjson'],
      ['SQLite', 'out.sqlite'],
    ] as const) {
      const pass = await cliPass(stack, dir, file);
      const rows = pass.report.productsUpserted;
      const perSecond = rows / pass.seconds;
      const floorPerSecond = rows / floor.seconds;
      out(
        `  catalog-sync → ${label}: ${rows} products, ${pass.report.pages} pages in ${pass.seconds.toFixed(2)} s (process ${pass.wallSeconds.toFixed(2)} s) = ${perSecond.toFixed(0)} products/s; floor ${floorPerSecond.toFixed(0)}/s, ratio ${(perSecond / floorPerSecond).toFixed(3)}; peak RSS ${(pass.maxRssBytes / 2 ** 20).toFixed(0)} MB`,
      );
      figures.push(
        {
          name: `catalog-sync full pass → ${label}`,
          value: round(perSecond),
          unit: 'products/s',
          baseline: round(floorPerSecond),
          ratio: round(perSecond / floorPerSecond),
          group,
        },
        {
          name: `catalog-sync → ${label}: wall time of the pass`,
          value: round(pass.seconds),
          unit: 's',
          group,
        },
        {
          name: `catalog-sync → ${label}: peak RSS of the process`,
          value: round(pass.maxRssBytes / 2 ** 20),
          unit: 'MB',
          group,
        },
        { name: `catalog-sync → ${label}: products written`, value: rows, unit: 'products', group },
      );
    }
    figures.push({ name: 'search requests of a pass (floor)', value: floor.pages, unit: 'requests', group });
  } finally {
    await rm(dir, { recursive: true, force: true });
    await stack.stop();
  }
}

if (!skipLimited) {
  out(`sync bench: ${limitedProducts} products, default limits on (${LIMITS_TEXT}), default pacing`);
  stack = await startStack({
    demoProducts: limitedProducts,
    env: {
      RATE_LIMIT_RPS: String(LIMITS.rps),
      RATE_LIMIT_BURST: String(LIMITS.burst),
      RATE_LIMIT_IP_PER_5MIN: String(LIMITS.windowLimit),
    },
  });
  try {
    const pass = await fullPass(stack, true);
    const bound = limitBoundSeconds(pass.requests);
    out(
      `  full pass: ${pass.rows} products, ${pass.requests} requests in ${pass.seconds.toFixed(1)} s; bound the limits impose ${bound.toFixed(1)} s; 429s: ${pass.statuses[429] ?? 0}; statuses ${JSON.stringify(pass.statuses)}`,
    );
    const group = 'default limits on, default pacing';
    figures.push(
      {
        name: 'full pass wall time',
        value: round(pass.seconds),
        unit: 's',
        baseline: round(bound),
        ratio: round(pass.seconds / bound),
        group,
      },
      { name: '429 responses', value: pass.statuses[429] ?? 0, unit: 'responses', group },
      { name: 'responses other than 200', value: nonOk(pass.statuses), unit: 'responses', group },
      { name: 'products written', value: pass.rows, unit: 'products', group },
      { name: 'search requests', value: pass.requests, unit: 'requests', group },
    );
  } finally {
    await stack.stop();
  }
}

writeBenchResults(new URL('../.bench/results.json', import.meta.url), {
  part: 'sync',
  title: 'SDK incremental sync: full pass (packages/sdk)',
  command: `BENCH_PRODUCTS=${products} BENCH_LIMITED_PRODUCTS=${limitedProducts} pnpm --filter @catalog/sdk run bench`,
  parameters: {
    products,
    limitedProducts,
    limitsOff: process.env.BENCH_SKIP_UNLIMITED !== '1',
    limitsOn: !skipLimited,
    limits: LIMITS_TEXT,
    // The report reads the per-IP window from here: a pass of no more requests never fills it.
    ipWindowRequests: LIMITS.windowLimit,
    ipWindowSeconds: LIMITS.windowSeconds,
  },
  figures,
  notes: [
    "Limits off: `catalog-sync --full` processes with pacing off into NDJSON and into SQLite; products/s over the pass (the report's durationMs: from the first request to the committed checkpoint, the NDJSON compaction and the SQLite WAL checkpoint included); peak RSS = getrusage maxRSS of that process. Baseline = the floor, a bare undici loop fetching the same pages in order in the same run (body read as text, cursor sliced out, nothing parsed or written); the ratio is catalog-sync over the floor (1 = as fast as the server and the connection allow).",
    "Limits on: baseline = the bound the limits impose on that many search requests: the time of the last one when each goes as soon as the gateway throttle (50/s, burst 100) and the per-IP window (1,000 in any 5 minutes) allow, simulated request by request (the first window's 1,000 go at the gateway's rate, so this is well under requests ÷ 3.33/s); the ratio is wall time over that bound.",
  ],
});
