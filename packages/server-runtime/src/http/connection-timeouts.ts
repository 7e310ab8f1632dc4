/**
 * How long a connection may take over each stage before the server closes it, so slow or silent
 * clients cannot hold sockets (and file descriptors) open indefinitely.
 */
export interface ConnectionTimeouts {
  /** Until a new connection's first byte, then again from it until the TLS handshake completes. */
  readonly tlsHandshakeMs: number;
  /** Until a request's headers are complete (answered 408). */
  readonly headersMs: number;
  /** Until a request, headers and body, has been received in full (answered 408). */
  readonly requestMs: number;
  /** Idle time on a kept-alive connection between two requests. */
  readonly keepAliveMs: number;
}

export const DEFAULT_CONNECTION_TIMEOUTS: ConnectionTimeouts = Object.freeze({
  tlsHandshakeMs: 10_000,
  headersMs: 20_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
});

/**
 * Node checks header and request deadlines on a timer (30 s by default), so a deadline can be
 * overrun by up to that interval; a tenth of the shortest deadline keeps the overrun small.
 */
export function connectionsCheckingInterval(timeouts: ConnectionTimeouts): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 10)));
}
