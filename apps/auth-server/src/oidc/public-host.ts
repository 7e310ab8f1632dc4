import type { Middleware } from 'koa';
import type { ProviderHolder } from './provider-holder.ts';

/**
 * Puts the issuer's host (PUBLIC_AUTH_URL, else https://localhost:$AUTH_SERVER_PORT) in place of
 * the caller's Host and X-Forwarded-Host. oidc-provider builds every URL it sends back (discovery's
 * endpoints, the interaction's return address, the login redirect) from the request's host, which
 * anyone can set, and a shared cache would then serve the forged links to others.
 */
export function publicHost(holder: ProviderHolder): Middleware {
  let issuer = '';
  let host = '';
  return async (ctx, next) => {
    const { provider } = await holder.current();
    if (provider.issuer !== issuer) {
      issuer = provider.issuer;
      host = new URL(issuer).host;
    }
    ctx.req.headers.host = host;
    delete ctx.req.headers['x-forwarded-host'];
    return next();
  };
}
