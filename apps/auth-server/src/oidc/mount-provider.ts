import type { Middleware } from 'koa';
import type { ProviderHolder } from './provider-holder.ts';

/**
 * Hands requests under BASE_PATH to oidc-provider (itself a Koa app). The provider routes on the
 * path without the prefix and rebuilds its own URLs from req.originalUrl, as when mounted in Express.
 */
export function mountProvider(basePath: string, holder: ProviderHolder): Middleware {
  return async (ctx, next) => {
    if (basePath !== '' && ctx.path !== basePath && !ctx.path.startsWith(`${basePath}/`)) return next();
    const { handler } = await holder.current();
    const req = ctx.req as typeof ctx.req & { originalUrl?: string };
    req.originalUrl = ctx.originalUrl;
    req.url = ctx.url.slice(basePath.length) || '/';
    ctx.respond = false;
    await handler(req, ctx.res);
  };
}
