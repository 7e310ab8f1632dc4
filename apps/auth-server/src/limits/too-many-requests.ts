import type { Context } from 'koa';
import { SIGN_IN_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/sign-in-store-unavailable.ts';
import { PAGE_HEADERS, page } from '../login/html.ts';

/**
 * The token endpoint's answer past a rate limit: 429 with Retry-After and the endpoint's error shape.
 * `slow_down` (RFC 8628's "poll less often") says what to do; credential errors keep their 400s.
 */
export const TOKEN_RATE_LIMITED = 'slow_down';

export const tokenRateLimitedDescription = (retryAfterSeconds: number) =>
  `too many token requests; retry after ${retryAfterSeconds} s`;

export function answerTokenRateLimited(ctx: Context, retryAfterSeconds: number): void {
  ctx.status = 429;
  ctx.set({ 'Retry-After': String(retryAfterSeconds), 'Cache-Control': 'no-store' });
  ctx.body = { error: TOKEN_RATE_LIMITED, error_description: tokenRateLimitedDescription(retryAfterSeconds) };
}

/** A sign-in page refused for load: 429 (this caller) or 503 (everyone), with Retry-After. */
export function answerSignInRefused(
  ctx: Context,
  status: 429 | 503,
  retryAfterSeconds: number,
  message: string,
): void {
  ctx.set(PAGE_HEADERS);
  ctx.set('Retry-After', String(retryAfterSeconds));
  ctx.status = status;
  ctx.type = 'html';
  ctx.body = page(
    'Sign-in unavailable - Catalog admin',
    `<h1>Catalog admin</h1><p class="error">${message}</p>`,
  );
}

/** A sign-in page while the store of sign-ins in progress (Redis) cannot answer. */
export function answerSignInUnavailable(ctx: Context): void {
  answerSignInRefused(
    ctx,
    503,
    SIGN_IN_UNAVAILABLE_RETRY_AFTER_SECONDS,
    'Sign-in is unavailable for a moment. Try again shortly.',
  );
}
