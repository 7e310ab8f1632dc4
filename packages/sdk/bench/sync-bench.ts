// pnpm bench (sync part). A full pass of BENCH_PRODUCTS (default 100 000) products on loopback with the
// limits off: products per second, and the ratio to a baseline in the same run (the same rows read
// straight from SQLite and serialised). Then, with the default limits on, a full pass of
// BENCH_LIMITED_PRODUCTS (default: the same catalogue) with the default pacing: wall time against the
// bound the limits impose (requests ÷ 3.33 per second) and the number of 429s (expected: zero).
// Results also go to .bench/results.json for scripts/performance-report.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import type { Product } from '@catalog/contracts';
import { catalogDatabasePath } from '@catalog/store';
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

async function fullPass(stack: Stack, pacing: boolean) {
  const statuses = new Map<number, number>();
  let requests = 0;
  const client = createCatalogClient({
    baseUrl: stack.baseUrl,
    authUrl: stack.authUrl,
    ...(await stack.credentials(['products.read'])),
    scopes: ['products.read'],
    ca: stack.ca,
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

function baseline(stack: Stack): { seconds: number; rows: number } {
  const db = new DatabaseSync(catalogDatabasePath(stack.dataDir), { readOnly: true });
  const started = performance.now();
  let rows = 0;
  for (const row of db
    .prepare('SELECT * FROM products WHERE archived = 0 ORDER BY updated_at, seq')
    .iterate()) {
    JSON.stringify(row);
    rows += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return { seconds, rows };
}

const out = (line: string) => process.stdout.write(`${line}\n`);

interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  group?: string;
}
const figures: Figure[] = [];
const round = (value: number) => Number(value.toPrecision(4));
const nonOk = (statuses: Record<string, number>) =>
  Object.entries(statuses).reduce((sum, [status, n]) => sum + (status === '200' ? 0 : n), 0);

let stack: Stack;
if (process.env.BENCH_SKIP_UNLIMITED !== '1') {
  out(`sync bench: ${products} products, limits off`);
  stack = await startStack({ demoProducts: products });
  try {
    const base = baseline(stack);
    const pass = await fullPass(stack, false);
    const perSecond = pass.rows / pass.seconds;
    const basePerSecond = base.rows / base.seconds;
    out(
      `  full pass: ${pass.rows} products, ${pass.requests} requests in ${pass.seconds.toFixed(2)} s = ${perSecond.toFixed(0)} products/s; statuses ${JSON.stringify(pass.statuses)}`,
    );
    out(
      `  baseline (SQLite read + JSON.stringify): ${base.rows} rows in ${base.seconds.toFixed(2)} s = ${basePerSecond.toFixed(0)} rows/s`,
    );
    out(`  ratio sync/baseline: ${(perSecond / basePerSecond).toFixed(3)}`);
    const group = 'limits off, no pacing';
    figures.push(
      {
        name: 'full pass',
        value: round(perSecond),
        unit: 'products/s',
        baseline: round(basePerSecond),
        ratio: round(perSecond / basePerSecond),
        group,
      },
      { name: 'full pass wall time', value: round(pass.seconds), unit: 's', group },
      { name: 'products written', value: pass.rows, unit: 'products', group },
      { name: 'search requests', value: pass.requests, unit: 'requests', group },
      { name: 'responses other than 200', value: nonOk(pass.statuses), unit: 'responses', group },
    );
  } finally {
    await stack.stop();
  }
}

if (!skipLimited) {
  out(
    `sync bench: ${limitedProducts} products, default limits on (50 req/s, burst 100, 1000 per 5 min per IP), default pacing`,
  );
  stack = await startStack({
    demoProducts: limitedProducts,
    env: { RATE_LIMIT_RPS: '50', RATE_LIMIT_BURST: '100', RATE_LIMIT_IP_PER_5MIN: '1000' },
  });
  try {
    const pass = await fullPass(stack, true);
    const bound = pass.requests / (1000 / 300);
    out(
      `  full pass: ${pass.rows} products, ${pass.requests} requests in ${pass.seconds.toFixed(1)} s; bound requests/3.33 = ${bound.toFixed(1)} s; 429s: ${pass.statuses[429] ?? 0}; statuses ${JSON.stringify(pass.statuses)}`,
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

const resultsDir = new URL('../.bench/', import.meta.url);
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  new URL('results.json', resultsDir),
  `${JSON.stringify(
    {
      part: 'sync',
      title: 'SDK incremental sync: full pass (packages/sdk)',
      command: `BENCH_PRODUCTS=${products} BENCH_LIMITED_PRODUCTS=${limitedProducts} pnpm --filter @catalog/sdk run bench`,
      finishedAt: new Date().toISOString(),
      loadAverage: loadavg().map(round),
      parameters: {
        products,
        limitedProducts,
        limitsOff: process.env.BENCH_SKIP_UNLIMITED !== '1',
        limitsOn: !skipLimited,
        limits: '50 req/s, burst 100, 1000 per 5 min per IP',
      },
      figures,
      notes: [
        'Limits off: baseline = the same rows read straight from SQLite in updated_at order and serialised with JSON.stringify, in the same run; the ratio is sync throughput over baseline throughput.',
        'Limits on: baseline = the bound the limits impose, search requests ÷ 3.33 per second (1,000 per 5 minutes); the ratio is wall time over that bound.',
      ],
    },
    null,
    2,
  )}\n`,
);
