import type { Middleware } from 'koa';
import type { TokenOutcome } from '../metrics/auth-metrics.ts';
import { tokenOutcomeOf } from '../metrics/auth-metrics.ts';

/**
 * Reports how each token request inside the provider ended, after the contract's error shape is
 * applied (../oidc/token-endpoint-errors.ts): issued, the error code, or rate_limited (the per-client
 * limit). Added first with provider.use(), so it sees the final answer.
 */
export function countTokenOutcomes(tokenPath: string, record: (outcome: TokenOutcome) => void): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== tokenPath) return next();
    try {
      await next();
    } finally {
      record(tokenOutcomeOf(ctx.status, (ctx.body as { error?: unknown } | undefined)?.error));
    }
  };
}
