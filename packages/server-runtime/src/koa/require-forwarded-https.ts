import type { Middleware } from 'koa';

/**
 * Behind a TLS-terminating proxy (TRUST_PROXY=true) the server itself speaks plain HTTP, so the
 * proxy's X-Forwarded-Proto is the only evidence that the caller used HTTPS. Anything else is refused.
 * The probes (/health, /ready) are exempt: load-balancer probes talk to the instance directly.
 */
export function requireForwardedHttps(...probePaths: readonly string[]): Middleware {
  return async (ctx, next) => {
    const proto = ctx.get('X-Forwarded-Proto').split(',')[0]?.trim().toLowerCase();
    if (proto !== 'https' && !probePaths.includes(ctx.path)) {
      ctx.status = 400;
      ctx.body = { message: 'This service accepts HTTPS only: plain HTTP is not supported.' };
      return;
    }
    await next();
  };
}
