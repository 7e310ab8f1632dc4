import { ADMIN_CLIENT_ID } from '@catalog/identity';
import type { Middleware } from 'koa';

/**
 * The console renews its ID token in a hidden frame: an authorization request of the admin client
 * with prompt=none, which never shows a page, only redirects back to the console. That answer alone
 * may be framed, and by the console origins alone; every other answer keeps `frame-ancestors 'none'`
 * (an error page oidc-provider renders sets it again).
 */
export function silentAuthorizationFraming(input: {
  readonly authorizationPath: string;
  readonly consoleOrigins: readonly string[];
}): Middleware {
  const policy = `default-src 'none'; frame-ancestors ${input.consoleOrigins.join(' ')}; base-uri 'none'`;
  return async (ctx, next) => {
    if (
      input.consoleOrigins.length > 0 &&
      ctx.path === input.authorizationPath &&
      ctx.query.prompt === 'none' &&
      ctx.query.client_id === ADMIN_CLIENT_ID
    ) {
      ctx.set('Content-Security-Policy', policy);
      ctx.remove('X-Frame-Options');
    }
    await next();
  };
}
