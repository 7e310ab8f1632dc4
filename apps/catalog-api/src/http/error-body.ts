import { STATUS_CODES } from 'node:http';
import { isAnswerable } from '@catalog/contracts';
import type { Middleware } from 'koa';
import { ClientValidationError } from '../domain/clients/client-validation-error.ts';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';

/**
 * The one place where any thrown error becomes the contract's error body (spec 7.2): `message`, the
 * machine-readable code (`error`, or `code` on GET /brands/search), `requestId`, `details`, and the
 * `errors` list of the client-management routes. Gateway rejections (401/403/429) carry only
 * `message`. An unexpected error is logged with its stack and answered with a generic 500 without a
 * code; a deliberate 5xx (search incomplete, time-out) keeps its status and code.
 */
export function errorBody(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // Koa and the router answer unmatched routes (404) and wrong methods (405, with Allow) without a body.
      if (ctx.status >= 400 && ctx.body == null) {
        const status = ctx.status;
        ctx.body = {
          message: STATUS_CODES[status] ?? 'Error',
          ...(status === 404 ? { error: 'NOT_FOUND' } : {}),
          requestId: ctx.state.requestId,
        };
        ctx.status = status;
      }
    } catch (thrown) {
      const requestId = ctx.state.requestId;
      // Only the service's own errors are mapped: a library's error with a `status` and a message of
      // its own (Koa's ctx.throw, http-errors) is not ours to pass on. The libraries the service relies
      // on are translated where they are called (json-body.ts for the body parser).
      if (!isAnswerable(thrown)) {
        ctx.state.log.error({ err: thrown }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { message: 'Internal server error', requestId };
        return;
      }
      const { status } = thrown;
      if (status >= 500) ctx.state.log.warn({ err: thrown, status }, 'service unavailable');
      if (thrown instanceof GatewayError) {
        ctx.set(thrown.headers);
        ctx.status = status;
        ctx.body = { message: thrown.message };
        return;
      }
      ctx.status = status;
      // GET /brands/search names the code of its own 400s `code`; its 401/403/500 are the common bodies.
      const codeField = ctx.state.errorStyle === 'code' && status === 400 ? 'code' : 'error';
      ctx.body = {
        message: thrown.message,
        ...(thrown.code === undefined ? {} : { [codeField]: thrown.code }),
        requestId,
        ...(thrown.details === undefined ? {} : { details: thrown.details }),
        ...(thrown instanceof ClientValidationError ? { errors: thrown.errors } : {}),
      };
    }
  };
}
