import type { Context, Middleware } from 'koa';
import { SignInStoreUnavailable } from '../errors/sign-in-store-unavailable.ts';
import { PAGE_HEADERS, page } from '../login/html.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import { answerSignInRefused, answerSignInUnavailable } from './too-many-requests.ts';

/**
 * The longest query an authorization request may carry. oidc-provider stores its parameters (state,
 * nonce, ...) with the interaction; the console's and the CLI's are under 600 characters.
 */
export const MAX_AUTHORIZATION_QUERY_LENGTH = 2048;

function refuse(ctx: Context, status: 405 | 414, message: string): void {
  ctx.set(PAGE_HEADERS);
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = page('Sign-in error - Catalog admin', `<h1>Catalog admin</h1><p class="error">${message}</p>`);
}

/**
 * What an unauthenticated caller may start: requests to the authorization endpoint, the login
 * pages and the end-session endpoint (each of its GETs stores a session) are counted per source IP
 * (429 past the limit), and an authorization request, whose
 * parameters are stored with its interaction, is a GET of bounded size. How many interactions are
 * held at once is the sign-in store's business (../ports/sign-ins.ts): an unauthenticated one can
 * be evicted, never refused. When that store (Redis) cannot answer, our sign-in routes answer 503
 * (oidc-provider's own answer it the same way, ../oidc/render-error.ts).
 */
export function signInAdmission(input: {
  readonly authorizationPath: string;
  readonly interactionPath: string;
  readonly endSessionPath: string;
  readonly perIp: RateLimiter;
}): Middleware {
  const { authorizationPath, interactionPath, endSessionPath } = input;
  const isSignInPath = (path: string) =>
    path === authorizationPath ||
    path.startsWith(`${authorizationPath}/`) ||
    path.startsWith(`${interactionPath}/`) ||
    path === endSessionPath ||
    path.startsWith(`${endSessionPath}/`);
  return async (ctx, next) => {
    if (!isSignInPath(ctx.path)) return next();
    const admission = await input.perIp.consume(ctx.ip);
    if (!admission.allowed) {
      return answerSignInRefused(
        ctx,
        429,
        admission.retryAfterSeconds,
        'Too many sign-in requests from your address. Try again later.',
      );
    }
    if (ctx.path === authorizationPath) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
        ctx.set('Allow', 'GET, HEAD');
        return refuse(ctx, 405, 'Sign-in requests are links (GET).');
      }
      if (ctx.querystring.length > MAX_AUTHORIZATION_QUERY_LENGTH) {
        return refuse(ctx, 414, 'This sign-in request is too long.');
      }
    }
    try {
      await next();
    } catch (error) {
      // A route that hands the response to oidc-provider has set respond = false.
      if (!(error instanceof SignInStoreUnavailable) || ctx.res.headersSent) throw error;
      ctx.respond = true;
      answerSignInUnavailable(ctx);
    }
  };
}
