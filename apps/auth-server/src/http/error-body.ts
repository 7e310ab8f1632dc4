import { isAnswerable } from '@catalog/contracts';
import type { RequestContextState } from '@catalog/server-runtime';
import type { Middleware } from 'koa';

/**
 * The one place where an error thrown on the token server's own routes (login pages, probes) becomes
 * an answer, in the contract's shape for this server (`{error, error_description}`, as RFC 6749 has
 * it): a ServiceError keeps its status and contract code; anything else is logged with its stack and
 * answered with the contract's 500 body, `server_error`, and nothing of the error. oidc-provider's
 * endpoints answer their own errors before any reaches this middleware, so their bodies stay its own.
 */
export function errorBody(): Middleware<RequestContextState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      // Part of an answer is on the wire already (the provider's, or a stream's): only the log can tell.
      if (ctx.res.headersSent) {
        ctx.state.log.error({ err: thrown }, 'error after the answer had started');
        return;
      }
      ctx.respond = true;
      if (!isAnswerable(thrown)) {
        ctx.state.log.error({ err: thrown }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { error: 'server_error', error_description: 'Internal server error' };
        return;
      }
      if (thrown.status >= 500)
        ctx.state.log.warn({ err: thrown, status: thrown.status }, 'service unavailable');
      ctx.status = thrown.status;
      ctx.body = {
        error: thrown.code ?? (thrown.status >= 500 ? 'server_error' : 'invalid_request'),
        error_description: thrown.message,
      };
    }
  };
}
