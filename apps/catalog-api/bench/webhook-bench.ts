// `pnpm --filter @catalog/catalog-api run bench:webhooks` (and part of `pnpm bench`): webhooks at
// BENCH_WEBHOOK_PRODUCTS (100,000, the issue's scale) with a paced writer aiming at
// BENCH_WEBHOOK_RATE writes a second (1,000) for BENCH_WEBHOOK_SECONDS (60), each write one product
// transaction on the embedded database, made beside the real API process (built `src/main.ts`,
// delivering as in production) by this process. Figures, each with its baseline from the same run:
// - writes a second and each write's time (p50/p99) with 10 subscriptions, and with one, against the
//   same writer with none; and the writer's pace flat out, of which the goal's pace is a share;
// - change-to-delivery latency (commit → the receiver's 2xx), p50/p99, with a healthy receiver, with the
//   10 subscriptions and then with one;
// - deliveries a second against what the writer asked, and against the machine's HTTPS ceiling (the
//   API's sender and the receiver alone, measured first: bench/https-ceiling.ts);
// - a receiver down for BENCH_WEBHOOK_OUTAGE_SECONDS (600) while the writer runs, then back (a trickle
//   of one write a second goes on, as a live catalogue does): every event delivered, none accepted
//   twice in the delivery log's successful attempts, order per product kept, time to drain.
// The receiver (bench/webhook-receiver.ts) runs in its own process. Results: .bench/webhooks-results.json.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { type Figure, writeBenchResults } from '@catalog/bench-results';
import { openCatalogue, selectEngines } from '@catalog/engines';
import {
  ensureLocalTls,
  generateClientSecret,
  hashClientSecret,
  loadClientSecretPepper,
} from '@catalog/server-runtime';
import { spawnService } from '@catalog/server-runtime/testing';
import type { ProductInput } from '@catalog/store';
import { aProduct } from '@catalog/store/testing';
import { generateWebhookSecret } from '../src/webhooks/delivery/sign-webhook.ts';
import {
  sealWebhookSecret,
  webhookSecretSealingKey,
} from '../src/webhooks/delivery/webhook-secret-sealing.ts';
import { prepareBenchCatalogue } from './bench-catalogue.ts';
import { measureHttpsCeiling } from './https-ceiling.ts';

const env = process.env;
const PRODUCTS = Number(env.BENCH_WEBHOOK_PRODUCTS ?? '100000');
const RATE = Number(env.BENCH_WEBHOOK_RATE ?? '1000');
const SECONDS = Number(env.BENCH_WEBHOOK_SECONDS ?? '60');
const OUTAGE_SECONDS = Number(env.BENCH_WEBHOOK_OUTAGE_SECONDS ?? '600');
const SUBSCRIPTIONS = 10;
/** The writer's run flat out, before the paced ones. */
const FLAT_OUT_SECONDS = 10;
/** Longest wait for the outbox to drain after a phase, before the bench reports what it saw. */
const DRAIN_LIMIT_MS = Number(env.BENCH_WEBHOOK_DRAIN_SECONDS ?? '1800') * 1000;
/** Events the sender posts alone, with nothing else running, to measure the machine's HTTPS ceiling. */
const CEILING_MESSAGES = Number(env.BENCH_WEBHOOK_CEILING_MESSAGES ?? '60000');
/** The API's default deliveries in flight per endpoint (WEBHOOK_CONCURRENCY_PER_ENDPOINT). */
const PER_ENDPOINT = Number(env.WEBHOOK_CONCURRENCY_PER_ENDPOINT ?? '32');
const LATENCY_GOAL_MS = 1000;
/** The figures of the run with one subscription (the latency goal as one integrator's endpoint sees it). */
const ONE_SUBSCRIPTION = 'Healthy receiver, one subscription';
const THROUGHPUT_GOAL = 0.9;

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const log = (line: string) => process.stderr.write(`webhook bench: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const catalogue = await prepareBenchCatalogue(PRODUCTS);
const { dataDir, databasePath } = catalogue;
// The receiver serves the local CA's certificate, which the API then trusts as its default WEBHOOK_CA_FILE.
await ensureLocalTls(dataDir);
const pepper = await loadClientSecretPepper({ dataDir });
const sealingKey = webhookSecretSealingKey(pepper);
const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir }, undefined), {
  searchWorkers: 1,
});
const started: { stop: () => Promise<unknown> }[] = [];

let serial = 0;
const nextProduct = (): ProductInput => {
  serial += 1;
  return aProduct({ productCode: `WHB-${process.pid}-${serial}`, name: `Webhook bench ${serial}` });
};

const WRITE_QUANTILES = { p50: 0.5, p99: 0.99 } as const;
type WriteQuantile = keyof typeof WRITE_QUANTILES;

interface PacedWrites {
  writes: number;
  perSecond: number;
  /** Each write's time, the wait for the file's write lock included (ms). */
  writeMs: Record<WriteQuantile, number>;
  /**
   * Per event written ("<product id> <event type>"), how far its time (the product's updatedAt, which
   * its webhook event carries) ran ahead of the wall clock as the write returned: latencies are taken
   * from the commit's wall time (see bench/webhook-receiver.ts).
   */
  aheadMs: Record<string, number>;
}

/**
 * Writes at `rate` a second for `seconds` (a product created, then the one before it changed, and so
 * on: every product gets two events in order), as fast as it can with `rate` Infinity. Returns the
 * writes made, the rate achieved, and the time the writes took.
 */
async function paceWrites(rate: number, seconds: number): Promise<PacedWrites> {
  const startedAt = performance.now();
  const end = startedAt + seconds * 1000;
  let writes = 0;
  const took: number[] = [];
  const aheadMs: Record<string, number> = {};
  let previous: ProductInput | undefined;
  while (performance.now() < end) {
    // The first write at once: at one a second for one second (the trickle) the last one would
    // fall due only as the time runs out, and nothing would be written.
    const due = Math.floor(((performance.now() - startedAt) / 1000) * rate) + 1;
    if (writes >= due) {
      await sleep(1);
      continue;
    }
    const writeStartedAt = performance.now();
    let written: { id: string; updatedAt: string };
    let type: string;
    if (previous === undefined) {
      previous = nextProduct();
      written = await store.products.create(previous);
      type = 'product.created';
    } else {
      written = await store.products.replace(previous.id as string, {
        ...previous,
        name: `${previous.name} v2`,
      });
      type = 'product.changed';
      previous = undefined;
    }
    took.push(performance.now() - writeStartedAt);
    aheadMs[`${written.id} ${type}`] = Date.parse(written.updatedAt) - Date.now();
    writes += 1;
  }
  took.sort((a, b) => a - b);
  const at = (q: number) =>
    Number((took[Math.min(took.length - 1, Math.floor(q * took.length))] ?? 0).toFixed(2));
  return {
    writes,
    perSecond: writes / ((performance.now() - startedAt) / 1000),
    writeMs: { p50: at(WRITE_QUANTILES.p50), p99: at(WRITE_QUANTILES.p99) },
    aheadMs,
  };
}

/** A phase's writes against those without subscriptions: their pace and each write's time. */
function writerFigures(phase: PacedWrites, alone: PacedWrites, label: string, group: string): Figure[] {
  return [
    {
      name: `writes/s with ${label} vs none`,
      value: Math.round(phase.perSecond),
      unit: 'writes/s',
      baseline: Math.round(alone.perSecond),
      ratio: Number((phase.perSecond / alone.perSecond).toFixed(3)),
      group,
    },
    ...(Object.keys(WRITE_QUANTILES) as WriteQuantile[]).map((quantile) => ({
      name: `time of a write, ${quantile}, with ${label} vs none`,
      value: phase.writeMs[quantile],
      unit: 'ms',
      baseline: alone.writeMs[quantile],
      ratio: Number((phase.writeMs[quantile] / alone.writeMs[quantile]).toFixed(2)),
      group,
    })),
  ];
}

async function createSubscriptions(count: number, port: number, prefix: string): Promise<string[]> {
  const clientId = `WHBENCH${String(Date.now()).slice(-8)}${prefix}`.padEnd(26, 'X').slice(0, 26);
  await store.clients.create({
    clientId,
    clientName: 'webhook bench',
    scopes: ['products.read'],
    createdBy: { userId: 'bench', userName: 'bench' },
    expiresAt: null,
    secretHash: hashClientSecret(generateClientSecret(), pepper),
    tokenLifetimeSeconds: 3600,
  });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = `${prefix}${String(i).padStart(4, '0')}${String(Date.now())}`.padEnd(26, 'Z').slice(0, 26);
    await store.webhooks.createSubscription({
      id,
      clientId,
      url: `https://localhost:${port}/${prefix}/${i}`,
      description: null,
      eventTypes: ['product.created', 'product.changed'],
      enabled: true,
      secretSealed: sealWebhookSecret(generateWebhookSecret(), sealingKey, id),
      createdBy: { userId: 'bench', userName: 'bench' },
    });
    ids.push(id);
  }
  return ids;
}

async function setEnabled(ids: readonly string[], enabled: boolean): Promise<void> {
  for (const id of ids) await store.webhooks.updateSubscription(id, { enabled });
}

interface ReceiverStats {
  accepted: number;
  distinct: number;
  duplicates: number;
  outOfOrder: number;
  refused: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Deliveries accepted more than a second after their change, by the second of the phase they came in. */
  late: { second: number; count: number; maxMs: number }[];
}

/** How far a phase's event times ran ahead of its commits' wall time (the latencies correct for it). */
function howFarAhead(writes: PacedWrites): string {
  const ahead = Object.values(writes.aheadMs).sort((a, b) => a - b);
  return `event times ran ahead of the commits' wall time by p50 ${ahead[Math.floor(ahead.length / 2)] ?? 0} ms, max ${ahead.at(-1) ?? 0} ms (the latencies are from the commit)`;
}

/**
 * When a phase's late deliveries came, runs of consecutive seconds merged ("s 0–3: 412, up to 4,610
 * ms"): one stall and a queue that grew through the minute give the same p99 and call for different
 * remedies.
 */
function whenLate(late: ReceiverStats['late']): string {
  if (late.length === 0) return 'none';
  const runs: { from: number; to: number; count: number; maxMs: number }[] = [];
  for (const { second, count, maxMs } of [...late].sort((a, b) => a.second - b.second)) {
    const last = runs.at(-1);
    if (last !== undefined && second === last.to + 1) {
      last.to = second;
      last.count += count;
      last.maxMs = Math.max(last.maxMs, maxMs);
    } else runs.push({ from: second, to: second, count, maxMs });
  }
  return runs
    .map(
      ({ from, to, count, maxMs }) =>
        `s ${from === to ? from : `${from}–${to}`}: ${count}, up to ${maxMs.toLocaleString('en')} ms`,
    )
    .join('; ');
}

async function startReceiver(): Promise<{
  port: number;
  ca: string;
  /** A control call; `aheadMs`, with /__stats, from the phase's writes (PacedWrites). */
  control(path: string, aheadMs?: Record<string, number>): Promise<ReceiverStats>;
}> {
  const child = spawn(process.execPath, [here('./webhook-receiver.ts'), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push({
    stop: async () => {
      child.kill();
      await once(child, 'exit');
    },
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const { port } = JSON.parse(line) as { port: number };
  const { Agent, request } = await import('undici');
  const ca = (await import('node:fs')).readFileSync(`${dataDir}/tls/ca.pem`, 'utf8');
  const dispatcher = new Agent({ connect: { ca } });
  return {
    port,
    ca,
    async control(path, aheadMs) {
      // A connection of its own each time: one kept from a call a minute before was closed by the
      // receiver as the writer's load delayed the client's own idle timer ("other side closed").
      const answer = await request(`https://localhost:${port}${path}`, {
        method: 'POST',
        dispatcher,
        reset: true,
        ...(aheadMs === undefined ? {} : { body: JSON.stringify(aheadMs) }),
      });
      return (await answer.body.json()) as ReceiverStats;
    },
  };
}

/** Reads the delivery log of the subscriptions straight from the database file (read-only). */
function outbox(subscriptionIds: readonly string[]) {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    const list = JSON.stringify(subscriptionIds);
    const one = (sql: string) => Number((db.prepare(sql).get(list) as { n: number }).n);
    return {
      deliveries: one(
        `SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id IN (SELECT value FROM json_each(?))`,
      ),
      open: one(
        `SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'succeeded' AND subscription_id IN (SELECT value FROM json_each(?))`,
      ),
      twiceDelivered: one(
        `SELECT count(*) AS n FROM (SELECT a.delivery_id FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
           WHERE a.outcome = 'delivered' AND d.subscription_id IN (SELECT value FROM json_each(?)) GROUP BY a.delivery_id HAVING count(*) > 1)`,
      ),
      backlog: Number(
        (
          db
            .prepare(
              'SELECT (SELECT max(sequence) FROM change_feed) - (SELECT through FROM webhook_outbox_cursor) AS n',
            )
            .get() as { n: number }
        ).n,
      ),
    };
  } finally {
    db.close();
  }
}

async function drain(
  subscriptionIds: readonly string[],
  expected: number,
  trickle: boolean,
): Promise<number> {
  const startedAt = performance.now();
  for (;;) {
    const state = outbox(subscriptionIds);
    if (state.backlog === 0 && state.deliveries >= expected && state.open === 0)
      return (performance.now() - startedAt) / 1000;
    if (performance.now() - startedAt > DRAIN_LIMIT_MS) return Number.NaN;
    if (trickle) await paceWrites(1, 1);
    else await sleep(250);
  }
}

const figures: Figure[] = [];
const notes: string[] = [];
try {
  const receiver = await startReceiver();
  // Before the API starts, so that nothing else runs beside the sender and the receiver.
  log(`the machine's HTTPS ceiling: ${CEILING_MESSAGES} events sent with no database, outbox or writer`);
  const ceiling = await measureHttpsCeiling({
    port: receiver.port,
    ca: receiver.ca,
    endpoints: SUBSCRIPTIONS,
    perEndpoint: PER_ENDPOINT,
    messages: CEILING_MESSAGES,
  });
  await receiver.control('/__reset');
  const api = await spawnService({
    entry: here('../src/main.ts'),
    env: {
      DATA_DIR: dataDir,
      CATALOG_API_PORT: '0',
      DEMO_CATALOGUE_PRODUCTS: '0',
      METRICS_PORT: '0',
      // The receiver is on loopback; nothing else differs from a production instance.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Delivery settings given to the bench reach the API: a run can measure other than the defaults.
      ...Object.fromEntries(
        Object.entries(env).filter(
          (entry): entry is [string, string] => entry[0].startsWith('WEBHOOK_') && entry[1] !== undefined,
        ),
      ),
      MALLOC_ARENA_MAX: '2',
    },
    nodeArgs: ['--max-semi-space-size=8'],
    timeoutMs: 600_000,
  });
  started.push(api);

  // What the writer makes flat out beside the idle API: how much of its capacity the goal's pace is.
  log(`${PRODUCTS} products; writer flat out for ${FLAT_OUT_SECONDS} s without subscriptions`);
  const flatOut = await paceWrites(Number.POSITIVE_INFINITY, FLAT_OUT_SECONDS);
  log(`writer at ${RATE}/s for ${SECONDS} s without subscriptions`);
  const alone = await paceWrites(RATE, SECONDS);
  const subscriptions = await createSubscriptions(SUBSCRIPTIONS, receiver.port, 'T');
  await receiver.control('/__reset');
  log(`the same with ${SUBSCRIPTIONS} subscriptions`);
  const before = outbox(subscriptions).deliveries;
  const watched = await paceWrites(RATE, SECONDS);
  const drainSeconds = await drain(subscriptions, before + watched.writes * SUBSCRIPTIONS, false);
  const healthy = await receiver.control('/__stats', watched.aheadMs);
  const log10 = outbox(subscriptions);
  figures.push(
    ...writerFigures(watched, alone, `${SUBSCRIPTIONS} subscriptions`, 'Writes'),
    {
      name: `writes/s asked of the writer vs its pace flat out (no subscriptions)`,
      value: RATE,
      unit: 'writes/s',
      baseline: Math.round(flatOut.perSecond),
      ratio: Number((RATE / flatOut.perSecond).toFixed(3)),
      group: 'Writes',
    },
    {
      name: 'change-to-delivery p50',
      value: healthy.p50 ?? Number.NaN,
      unit: 'ms',
      group: 'Healthy receiver',
    },
    {
      name: 'change-to-delivery p99',
      value: healthy.p99 ?? Number.NaN,
      unit: 'ms',
      group: 'Healthy receiver',
    },
    {
      name: 'change-to-delivery max',
      value: healthy.max ?? Number.NaN,
      unit: 'ms',
      group: 'Healthy receiver',
    },
    {
      name: 'events delivered',
      value: healthy.distinct,
      unit: 'events',
      baseline: watched.writes * SUBSCRIPTIONS,
      group: 'Healthy receiver',
    },
    {
      // What one instance delivered over the writer's run and the drain after it, against what the
      // writer asked of it (its writes a second × the subscriptions): below 1, the queue grew.
      name: 'deliveries a second, writes and drain',
      value: Math.round((healthy.distinct / (SECONDS + drainSeconds)) * 10) / 10,
      unit: 'events/s',
      baseline: Math.round(watched.perSecond * SUBSCRIPTIONS),
      ratio: Number(
        (healthy.distinct / (SECONDS + drainSeconds) / (watched.perSecond * SUBSCRIPTIONS)).toFixed(3),
      ),
      group: 'Healthy receiver',
    },
    {
      // The same figure against what the sender and the receiver manage alone on this machine:
      // how much of the machine's HTTPS capacity is left to deliveries beside the writer and the outbox.
      name: "deliveries a second vs the machine's HTTPS ceiling (sender and receiver alone)",
      value: Math.round((healthy.distinct / (SECONDS + drainSeconds)) * 10) / 10,
      unit: 'events/s',
      baseline: Math.round(ceiling.perSecond),
      ratio: Number((healthy.distinct / (SECONDS + drainSeconds) / ceiling.perSecond).toFixed(3)),
      group: 'Healthy receiver',
    },
    {
      name: 'drain after the writer stopped',
      value: Number(drainSeconds.toFixed(1)),
      unit: 's',
      group: 'Healthy receiver',
    },
  );
  notes.push(
    `Healthy: ${watched.writes} writes × ${SUBSCRIPTIONS} subscriptions; receiver accepted ${healthy.accepted} (${healthy.distinct} distinct, ${healthy.duplicates} twice), ${log10.open} deliveries not succeeded, ${log10.twiceDelivered} delivered twice in the log. Late (over 1 s), by the second of the phase they came in: ${whenLate(healthy.late)}; ${howFarAhead(watched)}.`,
  );
  await setEnabled(subscriptions, false);

  // The latency goal names no number of subscriptions (the 10 are the writes goal's): one
  // integrator's endpoint, with the writer at the same pace.
  log(`one subscription, writer at ${RATE}/s for ${SECONDS} s`);
  const [single] = await createSubscriptions(1, receiver.port, 'L');
  const singleIds = [single as string];
  await receiver.control('/__reset');
  const singleWrites = await paceWrites(RATE, SECONDS);
  const singleDrainSeconds = await drain(singleIds, singleWrites.writes, false);
  const one = await receiver.control('/__stats', singleWrites.aheadMs);
  await setEnabled(singleIds, false);
  for (const [name, value] of [
    ['change-to-delivery p50', one.p50],
    ['change-to-delivery p99', one.p99],
    ['change-to-delivery max', one.max],
  ] as const)
    figures.push({ name, value: value ?? Number.NaN, unit: 'ms', group: ONE_SUBSCRIPTION });
  figures.push(
    {
      name: 'events delivered',
      value: one.distinct,
      unit: 'events',
      baseline: singleWrites.writes,
      group: ONE_SUBSCRIPTION,
    },
    ...writerFigures(singleWrites, alone, 'one subscription', ONE_SUBSCRIPTION),
    {
      name: 'drain after the writer stopped',
      value: Number(singleDrainSeconds.toFixed(1)),
      unit: 's',
      group: ONE_SUBSCRIPTION,
    },
  );
  notes.push(
    `One subscription: ${singleWrites.writes} writes at ${Math.round(singleWrites.perSecond)}/s; receiver accepted ${one.accepted} (${one.distinct} distinct). Late (over 1 s), by the second of the phase they came in: ${whenLate(one.late)}; ${howFarAhead(singleWrites)}.`,
  );

  log(`receiver down for ${OUTAGE_SECONDS} s, writer at ${RATE}/s for ${SECONDS} s of it, one subscription`);
  const [outageSubscription] = await createSubscriptions(1, receiver.port, 'O');
  const outageIds = [outageSubscription as string];
  await receiver.control('/__reset');
  await receiver.control('/__down');
  const downAt = performance.now();
  const outageWrites = await paceWrites(RATE, Math.min(SECONDS, OUTAGE_SECONDS));
  while (performance.now() - downAt < OUTAGE_SECONDS * 1000) await paceWrites(1, 1);
  const duringOutage = outbox(outageIds).deliveries;
  await receiver.control('/__up');
  const recoverySeconds = await drain(outageIds, duringOutage, true);
  const outage = await receiver.control('/__stats');
  const outageLog = outbox(outageIds);
  figures.push(
    {
      name: 'events queued during the outage',
      value: duringOutage,
      unit: 'events',
      group: 'Receiver down, then back',
    },
    {
      name: 'events not delivered after it',
      value: outageLog.open,
      unit: 'events',
      group: 'Receiver down, then back',
    },
    {
      name: 'delivered twice (log, successful attempts)',
      value: outageLog.twiceDelivered,
      unit: 'events',
      group: 'Receiver down, then back',
    },
    {
      name: 'accepted out of order per product',
      value: outage.outOfOrder,
      unit: 'events',
      group: 'Receiver down, then back',
    },
    {
      name: 'time from back to all delivered',
      value: Number(recoverySeconds.toFixed(1)),
      unit: 's',
      group: 'Receiver down, then back',
    },
  );
  notes.push(
    `Outage: ${outageWrites.writes} writes at ${Math.round(outageWrites.perSecond)}/s then one a second; ${outage.refused} attempts refused (503) while down; after it the receiver accepted ${outage.accepted} (${outage.distinct} distinct).`,
  );

  const latencyGoal = (p99: number | null, subscriptions: number) =>
    `change-to-delivery p99 ≤ ${LATENCY_GOAL_MS} ms with a healthy receiver, ${subscriptions === 1 ? 'one subscription' : `${subscriptions} subscriptions`}: ${(p99 ?? Number.POSITIVE_INFINITY) <= LATENCY_GOAL_MS ? 'met' : 'NOT met'} (${p99} ms)`;
  const goals = [
    latencyGoal(one.p99, 1),
    latencyGoal(healthy.p99, SUBSCRIPTIONS),
    `writes with ${SUBSCRIPTIONS} subscriptions ≥ ${THROUGHPUT_GOAL}× without: ${watched.perSecond / alone.perSecond >= THROUGHPUT_GOAL ? 'met' : 'NOT met'} (${(watched.perSecond / alone.perSecond).toFixed(3)}×)`,
    `receiver down ${OUTAGE_SECONDS} s: every event delivered, none twice, order kept: ${outageLog.open === 0 && outageLog.twiceDelivered === 0 && outage.outOfOrder === 0 ? 'met' : 'NOT met'}`,
  ];
  notes.push(
    `The machine's HTTPS ceiling in this run: ${Math.round(ceiling.perSecond)} events/s with the sender and the receiver alone (${(ceiling.perSecond / (watched.perSecond * SUBSCRIPTIONS)).toFixed(2)}× what the writer asked: ${Math.round(watched.perSecond * SUBSCRIPTIONS)}/s).`,
  );
  for (const goal of goals) log(goal);
  writeBenchResults(new URL('../.bench/webhooks-results.json', import.meta.url), {
    part: 'webhooks',
    title: 'Webhooks: delivery from the change feed',
    command: 'pnpm --filter @catalog/catalog-api run bench:webhooks',
    parameters: {
      products: PRODUCTS,
      targetWritesPerSecond: RATE,
      seconds: SECONDS,
      subscriptions: SUBSCRIPTIONS,
      outageSeconds: OUTAGE_SECONDS,
      ceilingMessages: CEILING_MESSAGES,
    },
    figures,
    notes: [...goals, ...notes],
  });
} finally {
  for (const service of started.reverse()) await service.stop();
  await store.close();
  catalogue.release();
}
