import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** One request the receiver got, as it came: the raw body is what a signature covers. */
export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly path: string;
  readonly receivedAt: number;
}

/** How the receiver answers a request: a status and headers, or `hang` (never answers). */
export type WebhookAnswer = { status: number; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  /** `https://localhost:<port><path>`, on the stack's own certificate (its local CA). */
  url(path?: string): string;
  readonly received: ReceivedWebhook[];
  /** How the next requests are answered (204 until told otherwise). */
  answerWith(answer: (request: ReceivedWebhook) => WebhookAnswer): void;
  /**
   * The client-side ports of the requests held open by `hang` whose connection is still up: which
   * process sent them can be told from its sockets.
   */
  heldPorts(): number[];
  /** Resolves once `predicate` holds over what was received; checked after each request. */
  until(predicate: (received: readonly ReceivedWebhook[]) => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

/** Waits for a stack of a loaded machine ten times slower than a quiet one. */
const UNTIL_MS = 120_000;

/**
 * An integrator's HTTPS endpoint on loopback: the stack's server certificate (issued by its local CA
 * for localhost), so the API, trusting that CA, connects as to any endpoint with a real certificate.
 */
export async function startWebhookReceiver(dataDir: string): Promise<WebhookReceiver> {
  const [key, cert] = await Promise.all([
    readFile(join(dataDir, 'tls', 'server-key.pem')),
    readFile(join(dataDir, 'tls', 'server.pem')),
  ]);
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let answer: (request: ReceivedWebhook) => WebhookAnswer = () => ({ status: 204 });
  const waiters = new Set<() => void>();
  const server: Server = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhook: ReceivedWebhook = {
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: request.url ?? '/',
        receivedAt: Date.now(),
      };
      received.push(webhook);
      const reply = answer(webhook);
      if (reply === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
      } else {
        response.writeHead(reply.status, reply.headers);
        response.end();
      }
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks/catalog') => `https://localhost:${port}${path}`,
    received,
    heldPorts: () => [...hanging].flatMap((response) => response.socket?.remotePort ?? []),
    answerWith(next) {
      answer = next;
    },
    until(predicate, what) {
      if (predicate(received)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `webhook receiver: ${what} not seen within ${UNTIL_MS} ms (${received.length} received)`,
            ),
          );
        }, UNTIL_MS);
        const check = () => {
          if (!predicate(received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The parsed event of a received webhook. */
export const eventOf = (webhook: ReceivedWebhook) =>
  JSON.parse(webhook.body) as { type: string; timestamp: string; data: { id: string; updatedAt: string } };
