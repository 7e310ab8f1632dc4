import { STATUS_CODES } from 'node:http';
import type { Middleware } from 'koa';
import type { AppState } from './app-state.ts';

interface StatusCarrying {
  status?: unknown;
  code?: unknown;
  details?: unknown;
  errors?: unknown;
  expose?: unknown;
  gateway?: unknown;
  message?: unknown;
  headers?: unknown;
}

const statusOf = (error: StatusCarrying) =>
  typeof error.status === 'number' && error.status >= 400 && error.status <= 599 ? error.status : 500;

const isContractCode = (code: unknown): code is string => typeof code === 'string' && /^[A-Z_]+$/.test(code);

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
      const error = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as StatusCarrying;
      const status = statusOf(error);
      const requestId = ctx.state.requestId;
      if (status >= 500 && error.expose !== true) {
        ctx.state.log.error({ err: thrown }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { message: 'Internal server error', requestId };
        return;
      }
      if (status >= 500) ctx.state.log.warn({ err: thrown, status }, 'service unavailable');
      if (error.headers && typeof error.headers === 'object')
        ctx.set(error.headers as Record<string, string>);
      ctx.status = status;
      const message =
        error.expose === true && typeof error.message === 'string' ? error.message : 'Bad request';
      if (error.gateway === true) {
        ctx.body = { message };
        return;
      }
      // GET /brands/search names the code of its own 400s `code`; its 401/403/500 are the common bodies.
      const codeField = ctx.state.errorStyle === 'code' && status === 400 ? 'code' : 'error';
      ctx.body = {
        message,
        ...(isContractCode(error.code) ? { [codeField]: error.code } : {}),
        requestId,
        ...(error.details && typeof error.details === 'object' ? { details: error.details } : {}),
        ...(Array.isArray(error.errors) ? { errors: error.errors } : {}),
      };
    }
  };
}
