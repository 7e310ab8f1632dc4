// The integrators' endpoint of the webhook bench, in a process of its own so that its work does not
// slow the bench's writer: an HTTPS server on the stack's certificate that answers 204 (or 503 while
// "down"), and keeps, per subscription path, each event's arrival and the order in which a product's
// events were accepted. Control: POST /__stats, /__down, /__up, /__reset.
//
// An event's time (its change's updatedAt) can run ahead of the wall clock: a write's time comes
// after every product's updatedAt, so writes faster than one a millisecond push it forward. The
// latency is therefore taken from the commit's wall time, which only the writer knows: /__stats
// takes, as its JSON body, how far each write's time ran ahead of it ({ "<product id> <event type>":
// ms }), and adds it to the arrival minus the event's time.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const dataDir = process.argv[2] as string;
/** A delivery later than this counts as late in the report of when late ones came. */
const LATE_MS = 1000;
let down = false;
let resetAt = Date.now();
/** Per accepted delivery: its event's key, arrival minus the event's time, the second it came in. */
const arrivals: { key: string; sinceEventMs: number; second: number }[] = [];
const accepted = new Map<string, number>(); // webhook-id → times accepted (2xx)
const lastTypeOf = new Map<string, string>(); // path + product id → last accepted event type
let outOfOrder = 0;
let refused = 0;

function stats(aheadMs: Record<string, number>) {
  const late = new Map<number, { count: number; maxMs: number }>();
  const latencies = arrivals.map(({ key, sinceEventMs, second }) => {
    const latency = sinceEventMs + (aheadMs[key] ?? 0);
    if (latency > LATE_MS) {
      const seen = late.get(second) ?? { count: 0, maxMs: 0 };
      late.set(second, { count: seen.count + 1, maxMs: Math.max(seen.maxMs, latency) });
    }
    return latency;
  });
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? null;
  return {
    accepted: arrivals.length,
    distinct: accepted.size,
    duplicates: [...accepted.values()].filter((times) => times > 1).length,
    outOfOrder,
    refused,
    p50: at(0.5),
    p99: at(0.99),
    max: latencies.at(-1) ?? null,
    late: [...late].map(([second, { count, maxMs }]) => ({ second, count, maxMs })),
  };
}

const server = createServer(
  {
    key: readFileSync(join(dataDir, 'tls', 'server-key.pem')),
    cert: readFileSync(join(dataDir, 'tls', 'server.pem')),
  },
  (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      if (path.startsWith('/__')) {
        if (path === '/__down') down = true;
        if (path === '/__up') down = false;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(stats(body === '' ? {} : (JSON.parse(body) as Record<string, number>))));
        if (path === '/__reset') {
          arrivals.length = 0;
          accepted.clear();
          lastTypeOf.clear();
          outOfOrder = 0;
          refused = 0;
          resetAt = Date.now();
        }
        return;
      }
      if (down) {
        refused += 1;
        response.writeHead(503).end();
        return;
      }
      const now = Date.now();
      const event = JSON.parse(body) as { type: string; timestamp: string; data: { id: string } };
      const id = String(request.headers['webhook-id']);
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      arrivals.push({
        key: `${event.data.id} ${event.type}`,
        sinceEventMs: now - Date.parse(event.timestamp),
        second: Math.floor((now - resetAt) / 1000),
      });
      const key = `${path} ${event.data.id}`;
      // The bench writes each product created, then changed: a change accepted before its creation is out of order.
      if (event.type === 'product.created' && lastTypeOf.get(key) === 'product.changed') outOfOrder += 1;
      lastTypeOf.set(key, event.type);
      response.writeHead(204).end();
    });
  },
);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
