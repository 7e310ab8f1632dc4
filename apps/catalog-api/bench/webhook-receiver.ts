// The integrators' endpoint of the webhook bench, in a process of its own so that its work does not
// slow the bench's writer: an HTTPS server on the stack's certificate that answers 204 (or 503 while
// "down"), and keeps, per subscription path, each event's delivery latency and the order in which a
// product's events were accepted. Control: GET /__stats, POST /__down, POST /__up.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const dataDir = process.argv[2] as string;
let down = false;
const latenciesMs: number[] = [];
const accepted = new Map<string, number>(); // webhook-id → times accepted (2xx)
const lastTypeOf = new Map<string, string>(); // path + product id → last accepted event type
let outOfOrder = 0;
let refused = 0;

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
      if (path.startsWith('/__')) {
        if (path === '/__down') down = true;
        if (path === '/__up') down = false;
        const sorted = [...latenciesMs].sort((a, b) => a - b);
        const at = (q: number) =>
          sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            accepted: latenciesMs.length,
            distinct: accepted.size,
            duplicates: [...accepted.values()].filter((times) => times > 1).length,
            outOfOrder,
            refused,
            p50: at(0.5),
            p99: at(0.99),
            max: sorted.at(-1) ?? null,
          }),
        );
        if (path === '/__reset') {
          latenciesMs.length = 0;
          accepted.clear();
          lastTypeOf.clear();
          outOfOrder = 0;
          refused = 0;
        }
        return;
      }
      if (down) {
        refused += 1;
        response.writeHead(503).end();
        return;
      }
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        timestamp: string;
        data: { id: string };
      };
      const id = String(request.headers['webhook-id']);
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      latenciesMs.push(Date.now() - Date.parse(event.timestamp));
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
