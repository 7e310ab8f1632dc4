import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { ListenError } from '../http/listen.ts';
import type { MetricsSettings } from './metrics-settings.ts';

export interface MetricsListener {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The scrape endpoint, apart from the public port: GET /metrics and nothing else (404). Plain HTTP,
 * on loopback unless METRICS_HOST says otherwise: Prometheus scrapes it from the same host, and it
 * carries counts and timings only, never a secret, a token or a client id.
 */
export async function listenForScrapes(
  registry: Registry,
  settings: MetricsSettings,
): Promise<MetricsListener> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const message =
        error.code === 'EADDRINUSE'
          ? `metrics port ${settings.port} on ${settings.host} is already in use; set ${settings.portVariable} (or METRICS_ENABLED=false)`
          : `cannot listen for metrics on ${settings.host}:${settings.port}: ${error.message}`;
      reject(new ListenError(message, { cause: error }));
    });
    server.listen({ host: settings.host, port: settings.port }, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
