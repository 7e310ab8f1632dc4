import type { Middleware } from 'koa';

/**
 * The page policy of anything without its own: nothing loads but same-origin scripts (oidc-provider
 * adds the hash of each inline script it renders to `script-src`) and inline styles, and no page of
 * ours can be framed by another site (clickjacking). No `form-action`: oidc-provider's form_post
 * response posts to the client's redirect URI on another origin.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'";

const ONE_YEAR_SECONDS = 31_536_000;

/**
 * Headers every response of both servers carries, set before the rest of the chain runs so that
 * handlers writing to the raw response (oidc-provider) send them too and a route may replace the
 * policy with its own (the API reference page does). HSTS is sent only on HTTPS: a direct TLS
 * connection, or the proxy's X-Forwarded-Proto when TRUST_PROXY lets Koa believe it.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Content-Security-Policy', DEFAULT_CONTENT_SECURITY_POLICY);
    ctx.set('Referrer-Policy', 'no-referrer');
    if (ctx.secure) ctx.set('Strict-Transport-Security', `max-age=${ONE_YEAR_SECONDS}`);
    await next();
  };
}
