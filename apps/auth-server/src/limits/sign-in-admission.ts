import type { Middleware } from 'koa';
import type { SignInStore } from '../oidc/sign-in-store.ts';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import { answerSignInRefused } from './too-many-requests.ts';

const FULL_RETRY_AFTER_SECONDS = 60;

/**
 * What an unauthenticated caller may start: requests to the authorization endpoint and the login
 * pages are counted per source IP (429 past the limit), and a new authorization request, which
 * stores an interaction, must find room in the sign-in store (503 when full; sign-ins already in
 * progress are never evicted to make room).
 */
export function signInAdmission(input: {
  readonly authorizationPath: string;
  readonly interactionPath: string;
  readonly perIp: RateLimiter;
  readonly store: SignInStore;
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
    if (ctx.path !== authorizationPath) return next();
    const room = input.store.reserveSignIn();
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
  };
}
