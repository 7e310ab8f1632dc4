// A fault-injecting HTTPS proxy for tests: forwards to the real API (or answers itself when no upstream
// is given) and, when its rule says so, answers with a fault instead: a status with or without
// Retry-After, a reset connection, a slow response, a stale-cursor rejection, or the real answer rewritten
// (a page served again, an empty page).
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Fault =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body?: unknown;
      readonly retryAfter?: string;
    }
  | { readonly kind: 'reset' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'stale-cursor' }
  /** Forwards, then replaces the JSON body of a 2xx answer by `rewrite(body)`. */
  | { readonly kind: 'rewrite'; readonly rewrite: (body: unknown) => unknown };

export const faults = {
  tooManyRequests: (retryAfter?: string): Fault =>
    retryAfter === undefined
      ? { kind: 'status', status: 429, body: { message: 'Too many requests' } }
      : { kind: 'status', status: 429, body: { message: 'Too many requests' }, retryAfter },
  internal: (): Fault => ({
    kind: 'status',
    status: 500,
    body: { message: 'Internal server error', requestId: 'r-500' },
  }),
  searchIncomplete: (): Fault => ({
    kind: 'status',
    status: 503,
    body: { message: 'Search incomplete', error: 'SEARCH_INCOMPLETE', requestId: 'r-503' },
  }),
  searchTimeout: (): Fault => ({
    kind: 'status',
    status: 504,
    body: { message: 'Search timed out', error: 'SEARCH_TIMEOUT', requestId: 'r-504' },
  }),
  forbidden: (): Fault => ({ kind: 'status', status: 403, body: { message: 'Forbidden' } }),
  unauthorized: (): Fault => ({ kind: 'status', status: 401, body: { message: 'Unauthorized' } }),
  reset: (): Fault => ({ kind: 'reset' }),
  slow: (ms: number): Fault => ({ kind: 'delay', ms }),
  staleCursor: (): Fault => ({ kind: 'stale-cursor' }),
};

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly fault: Fault['kind'] | undefined;
}

export type FaultRule = (request: { method: string; path: string; index: number }) => Fault | undefined;

export interface FaultProxy {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** Replaces the rule (undefined = pass everything through). */
  rule(rule: FaultRule | undefined): void;
  /** Applies these faults, in order, to the next requests whose path starts with `prefix`. */
  queue(prefix: string, ...faults: Fault[]): void;
  /**
   * Passes everything through again: no rule, nothing queued. A queued fault no request took (one
   * that timed out before reaching the proxy) must not answer the next test's request.
   */
  reset(): void;
  close(): Promise<void>;
}

export interface FaultProxyOptions {
  readonly tls: { readonly key: string; readonly cert: string };
  /** The real server to forward to, and the CA it is signed by. */
  readonly upstream?: { readonly url: string; readonly ca: string };
  /** Answers requests itself when there is no upstream. */
  readonly respond?: (request: IncomingMessage, response: ServerResponse) => void;
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const seen: SeenRequest[] = [];
  let currentRule: FaultRule | undefined;
  const queued: { prefix: string; fault: Fault }[] = [];

  const pickFault = (method: string, path: string): Fault | undefined => {
    const index = queued.findIndex((entry) => path.startsWith(entry.prefix));
    if (index >= 0) return queued.splice(index, 1)[0]?.fault;
    return currentRule?.({ method, path, index: seen.length });
  };

  const forward = (
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    rewrite?: (body: unknown) => unknown,
  ): void => {
    if (options.upstream === undefined) {
      options.respond?.(incoming, outgoing);
      return;
    }
    const target = new URL(incoming.url ?? '/', options.upstream.url);
    const upstream = request(
      target,
      {
        method: incoming.method,
        headers: { ...incoming.headers, host: target.host },
        ca: options.upstream.ca,
      },
      (reply) => {
        const status = reply.statusCode ?? 502;
        if (rewrite === undefined || status >= 300) {
          outgoing.writeHead(status, reply.headers);
          reply.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => chunks.push(chunk));
        reply.on('end', () => {
          const body = JSON.stringify(rewrite(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = reply.headers;
          outgoing.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  };

  const server = createServer({ key: options.tls.key, cert: options.tls.cert }, (incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    const path = incoming.url ?? '/';
    const fault = pickFault(method, path);
    seen.push({ method, path, headers: incoming.headers, fault: fault?.kind });
    if (fault === undefined) return forward(incoming, outgoing);
    switch (fault.kind) {
      case 'reset':
        incoming.socket.destroy();
        return;
      case 'delay':
        // Unreferenced: a delay longer than the test never holds the process open.
        setTimeout(() => {
          if (!outgoing.destroyed) forward(incoming, outgoing);
        }, fault.ms).unref();
        return;
      case 'rewrite':
        return forward(incoming, outgoing, fault.rewrite);
      case 'stale-cursor':
        outgoing.writeHead(400, { 'content-type': 'application/json' });
        outgoing.end(
          JSON.stringify({ message: 'Invalid sync token', error: 'INVALID_SYNC_TOKEN', requestId: 'r-400' }),
        );
        return;
      case 'status': {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'x-request-id': 'proxy',
        };
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        outgoing.writeHead(fault.status, headers);
        outgoing.end(JSON.stringify(fault.body ?? { message: `HTTP ${fault.status}` }));
        return;
      }
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    seen,
    rule(rule) {
      currentRule = rule;
    },
    queue(prefix, ...list) {
      for (const fault of list) queued.push({ prefix, fault });
    },
    reset() {
      currentRule = undefined;
      queued.length = 0;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
