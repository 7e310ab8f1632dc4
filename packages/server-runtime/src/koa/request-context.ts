import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { redactUrl } from '../logging/redact-url.ts';

export interface RequestContextState {
  requestId: string;
  log: Logger;
}

// A caller-supplied id is kept only when it cannot smuggle anything into logs or headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id (echoed as X-Request-Id, quoted in error bodies) and a child logger,
 * and writes one access-log line per request. The query string is logged with credential
 * parameters (client_secret, access_token, code…) redacted; headers are not logged.
 */
export function requestContext(logger: Logger): Middleware<RequestContextState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const started = performance.now();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
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
        },
        'request',
      );
    }
  };
}
