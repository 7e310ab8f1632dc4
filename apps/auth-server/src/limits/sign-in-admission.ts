import type { Middleware } from 'koa';
import { SignInStoreUnavailable } from '../errors/sign-in-store-unavailable.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import type { SignIns } from '../ports/sign-ins.ts';
import { answerSignInRefused, answerSignInUnavailable } from './too-many-requests.ts';

const FULL_RETRY_AFTER_SECONDS = 60;

/**
 * What an unauthenticated caller may start: requests to the authorization endpoint and the login
 * pages are counted per source IP (429 past the limit), and a new authorization request, which
 * stores an interaction, must find room in the sign-in store (503 when full; sign-ins already in
 * progress are never evicted to make room). When that store (Redis) cannot answer, our sign-in
 * routes answer 503 too (oidc-provider's own answer it the same way, ../oidc/render-error.ts).
 */
export function signInAdmission(input: {
  readonly authorizationPath: string;
  readonly interactionPath: string;
  readonly perIp: RateLimiter;
  readonly store: SignIns;
}): Middleware {
  const { authorizationPath, interactionPath } = input;
  const isSignInPath = (path: string) =>
    path === authorizationPath ||
    path.startsWith(`${authorizationPath}/`) ||
    path.startsWith(`${interactionPath}/`);
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
    try {
      await admitted(ctx, next);
    } catch (error) {
      // A route that hands the response to oidc-provider has set respond = false.
      if (!(error instanceof SignInStoreUnavailable) || ctx.res.headersSent) throw error;
      ctx.respond = true;
      answerSignInUnavailable(ctx);
    }
  };

  /** A new authorization request first reserves room; the login pages go straight on. */
  async function admitted(ctx: Parameters<Middleware>[0], next: () => Promise<unknown>) {
    if (ctx.path !== authorizationPath) return next();
    const room = await input.store.reserve();
    if (room === undefined) {
      return answerSignInRefused(
        ctx,
        503,
        FULL_RETRY_AFTER_SECONDS,
        'Too many sign-ins are in progress. Try again in a minute.',
      );
    }
    try {
      await next();
    } finally {
      room.release();
    }
  }
}
