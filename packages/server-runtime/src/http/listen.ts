import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { TlsMaterial } from '../tls/local-ca.ts';
import {
  type ConnectionTimeouts,
  connectionsCheckingInterval,
  DEFAULT_CONNECTION_TIMEOUTS,
} from './connection-timeouts.ts';
import { refuseAmbiguousHost } from './refuse-ambiguous-host.ts';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ListenOptions {
  readonly handler: RequestHandler;
  readonly host: string;
  readonly port: number;
  /** null: plain HTTP for a TLS-terminating proxy in front (TRUST_PROXY). */
  readonly tls: TlsMaterial | null;
  /** Name of the environment variable that sets the port, for the error message. */
  readonly portVariable: string;
  /** Deadlines for slow or silent clients; the defaults when absent. */
  readonly timeouts?: ConnectionTimeouts;
}

export interface RunningServer {
  readonly port: number;
  readonly host: string;
  /** Stops accepting, lets in-flight requests finish (up to graceMs), then closes every connection. */
  close(graceMs?: number): Promise<void>;
}

export class ListenError extends Error {
  constructor(message: string, options: ErrorOptions) {
    super(message, options);
    this.name = 'ListenError';
  }
}

const TLS_HANDSHAKE_RECORD = 0x16;
const HTTPS_ONLY_BODY = JSON.stringify({
  message: 'This server accepts HTTPS only: plain HTTP is not supported. Use an https:// URL.',
});
const HTTPS_ONLY_RESPONSE = [
  'HTTP/1.1 400 Bad Request',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(HTTPS_ONLY_BODY)}`,
  'Connection: close',
  '',
  HTTPS_ONLY_BODY,
].join('\r\n');

const httpServerOptions = (timeouts: ConnectionTimeouts) => ({
  headersTimeout: timeouts.headersMs,
  requestTimeout: timeouts.requestMs,
  keepAliveTimeout: timeouts.keepAliveMs,
  connectionsCheckingInterval: connectionsCheckingInterval(timeouts),
});

/**
 * Looks at the first byte of each connection: a TLS handshake goes to the HTTPS server, anything
 * else (a plain HTTP request) gets a clear 400 instead of a connection reset, and is closed.
 * A client has `tlsHandshakeMs` to send its first byte and as long again to complete the handshake,
 * however slowly it dribbles it.
 */
function tlsOnlyFront(tls: TlsMaterial, handler: RequestHandler, timeouts: ConnectionTimeouts): Server {
  const https = createHttpsServer(
    {
      cert: tls.cert,
      key: tls.key,
      minVersion: 'TLSv1.2',
      handshakeTimeout: timeouts.tlsHandshakeMs,
      ...httpServerOptions(timeouts),
    },
    handler,
  );
  const front = createNetServer((socket) => {
    socket.setTimeout(timeouts.tlsHandshakeMs, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      if (chunk[0] === TLS_HANDSHAKE_RECORD) {
        socket.unshift(chunk);
        https.emit('connection', socket);
        process.nextTick(() => socket.resume());
      } else {
        socket.end(HTTPS_ONLY_RESPONSE);
      }
    });
  });
  // The HTTPS server never listens itself (it is handed sockets), and Node starts the timer that
  // enforces headersTimeout and requestTimeout on 'listening': without this, neither ever fires.
  front.once('listening', () => https.emit('listening'));
  front.once('close', () => https.close(() => undefined));
  return front;
}

/** Starts a server and resolves once it accepts connections. */
export async function listen(options: ListenOptions): Promise<RunningServer> {
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const sockets = new Set<Socket>();

  const timeouts = options.timeouts ?? DEFAULT_CONNECTION_TIMEOUTS;
  const counted: RequestHandler = (req, res) => {
    if (refuseAmbiguousHost(req, res)) return;
    inFlight += 1;
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    });
    options.handler(req, res);
  };

  const server = options.tls
    ? tlsOnlyFront(options.tls, counted, timeouts)
    : createHttpServer(httpServerOptions(timeouts), counted);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      const message =
        error.code === 'EADDRINUSE'
          ? `port ${options.port} on ${options.host} is already in use; stop the other process or set ${options.portVariable}`
          : error.code === 'EACCES'
            ? `not allowed to listen on ${where}; choose a port above 1023 with ${options.portVariable}`
            : `cannot listen on ${where}: ${error.message}`;
      reject(new ListenError(message, { cause: error }));
    });
    server.listen({ host: options.host, port: options.port }, resolve);
  });

  const { port } = server.address() as AddressInfo;
  return {
    port,
    host: options.host,
    async close(graceMs = 10_000) {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}
