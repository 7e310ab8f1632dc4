import { ServiceError } from '@catalog/contracts';
import type { Middleware } from 'koa';

/**
 * RFC 6750 §2.3 lets a resource server refuse tokens in the URI, and this one does (spec 5.1: the
 * Authorization header only): URLs end up in proxy logs, browser history and Referer headers. The
 * request is refused as invalid (400, not 401, which would tell the caller to fetch a new token and
 * retry the same URL), whatever the route and whether or not a header is also sent.
 */
export function refuseQueryAccessToken(): Middleware {
  return async (ctx, next) => {
    if (new URLSearchParams(ctx.querystring).has('access_token')) {
      throw ServiceError.of(
        'VALIDATION_ERROR',
        'access_token is not accepted in the query string; send the token in the Authorization header (Authorization: Bearer <token>)',
        { details: { field: 'access_token', reason: 'not accepted in the query string' } },
      );
    }
    await next();
  };
}
