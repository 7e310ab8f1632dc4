import type { Middleware } from 'koa';

/** Answers the operators' liveness probe without authentication. */
export function healthCheck(path: string, service: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', service };
  };
}
