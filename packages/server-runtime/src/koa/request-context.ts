import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { redactUrl } from '../logging/redact-url.ts';
import { continueTrace, type TraceContext } from '../tracing/trace-context.ts';

export interface RequestContextState {
  requestId: string;
  log: Logger;
  /** The W3C trace of this request: send `traceHeaders(ctx.state.trace)` on calls made for it. */
  trace: TraceContext;
}

// A caller-supplied id is kept only when it cannot smuggle anything into logs or headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id (echoed as X-Request-Id, quoted in error bodies), a W3C trace (the
 * caller's `traceparent` when valid, else a new trace; a new span id either way) and a child logger
 * carrying the request id, trace id and span id, and writes one access-log line per request. The
 * query string is logged with credential parameters (client_secret, access_token, code…)
 * redacted; headers are not logged. No `traceparent` is sent back: level 1 of the spec defines
 * none for responses, and a caller correlates by the X-Request-Id it gets.
 */
export function requestContext(logger: Logger): Middleware<RequestContextState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    const trace = continueTrace({
      traceparent: ctx.get('traceparent') || undefined,
      tracestate: ctx.get('tracestate') || undefined,
    });
    ctx.state.requestId = requestId;
    ctx.state.trace = trace;
    ctx.state.log = logger.child({ requestId, traceId: trace.traceId, spanId: trace.spanId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      ctx.state.log.info(
        {
          method: ctx.method,
          url: redactUrl(ctx.originalUrl),
          status: ctx.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ip: ctx.ip,
          ...(trace.parentSpanId === undefined ? {} : { parentSpanId: trace.parentSpanId }),
        },
        'request',
      );
    }
  };
}
