// An integrator's HTTPS endpoint on 127.0.0.1 with a certificate of the repo's local CA (made for
// the test in its own data directory): it records what reaches it and answers as the test says.
import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ensureLocalTls } from '@catalog/server-runtime';
import { tempDataDir } from '@catalog/store/testing';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** How the receiver answers a path: a status, or a function that writes the response itself. */
export type Answer =
  | { status: number; headers?: Record<string, string>; body?: string }
  | ((response: ServerResponse) => void);

export interface HttpsReceiver {
  /** The local CA's certificate, which the sender must be told to trust. */
  ca: string;
  port: number;
  received: ReceivedRequest[];
  answer(path: string, how: Answer): void;
  receivedAt(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const dataDir = tempDataDir();
  const tls = await ensureLocalTls(dataDir);
  const received: ReceivedRequest[] = [];
  const answers = new Map<string, Answer>();
  const server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
      );
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8') });
      const how = answers.get(path) ?? { status: 204 };
      if (typeof how === 'function') return how(response);
      response.writeHead(how.status, how.headers);
      response.end(how.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ca: tls.ca as string,
    port: (server.address() as AddressInfo).port,
    received,
    answer: (path, how) => answers.set(path, how),
    receivedAt: (path) => received.filter((request) => request.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
