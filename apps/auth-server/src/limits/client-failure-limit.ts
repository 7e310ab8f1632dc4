import type { Context, Middleware } from 'koa';
import { basicCredentials } from '../oidc/basic-credentials.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import { answerTokenRateLimited } from './too-many-requests.ts';

interface OidcParams {
  oidc?: { params?: { client_id?: unknown } };
}

/** The client id of an HTTP Basic header, decoded as oidc-provider decodes it. */
function basicClientId(header: string): string | undefined {
  const id = basicCredentials(header)?.id;
  if (id === undefined) return undefined;
  try {
    return decodeURIComponent(id.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}

function namedClientId(ctx: Context): string | undefined {
  const posted = (ctx as unknown as OidcParams).oidc?.params?.client_id;
  const id = typeof posted === 'string' ? posted : basicClientId(ctx.get('Authorization'));
  return id === '' ? undefined : id;
}

/**
 * Failed client authentications per client id (TOKEN_RATE_LIMIT_CLIENT_PER_MIN), counted once the
 * provider has answered: only a request refused as invalid_client (a wrong secret, or an id that is
 * unknown, revoked or expired, alike) counts, and only such a request is turned into a 429 past
 * the limit. The right secret is always served, so guessing at a client id cannot lock its
 * integrator out; its guesses are still bounded, each past the limit answered 429 (a secret of 256
 * random bits leaves nothing to learn from the few checked anyway), and the per-address limit
 * bounds each caller before the provider runs. Added with provider.use() outside the contract's
 * error mapping (../oidc/token-endpoint-errors.ts), which makes every authentication failure one
 * invalid_client.
 */
export function clientFailureLimit(tokenPath: string, perClient: RateLimiter): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.path !== tokenPath || (ctx.body as { error?: unknown } | undefined)?.error !== 'invalid_client') {
      return;
    }
    const clientId = namedClientId(ctx);
    if (clientId === undefined) return;
    const admission = await perClient.consume(clientId);
    if (!admission.allowed) answerTokenRateLimited(ctx, admission.retryAfterSeconds);
  };
}
