import type { Middleware } from 'koa';
import { trustedPeers } from '../http/trusted-proxies.ts';

/** What Koa and oidc-provider believe from a proxy when `app.proxy` is on. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded'] as const;

/**
 * Koa's `proxy` option trusts the X-Forwarded-* headers of every peer, and a caller reaching an
 * instance's port directly could write its own address (dodging or spending another's per-IP
 * window) and its own protocol. Removed here unless the TCP peer is one of TRUSTED_PROXIES, so such a
 * request is what it is: direct, from the socket's address, plain HTTP (refused by
 * requireForwardedHttps). First in the chain, before anything reads `ctx.ip` (Koa caches it).
 */
export function trustedProxyHeaders(trustedProxies: readonly string[]): Middleware {
  const trusted = trustedPeers(trustedProxies);
  return async (ctx, next) => {
    if (!trusted(ctx.req.socket.remoteAddress)) {
      for (const name of FORWARDED_HEADERS) delete ctx.req.headers[name];
    }
    await next();
  };
}
