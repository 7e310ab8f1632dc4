import type { Middleware } from 'koa';
import type { RequestLimiter } from '../limits/request-limiter.ts';
import type { ApiLimiter } from '../metrics/catalog-metrics.ts';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';

/**
 * The limits of spec 8 (see RequestLimiter), keyed on the caller's address as Koa reads it: the
 * socket's peer, or behind TRUST_PROXY the X-Forwarded-For entry the proxy appended (app.ts). Over
 * a limit: 429 with Retry-After in whole seconds, at least 1. The health probe is exempt so
 * operators can see a saturated server is alive. `onRejected` hears of each 429 (the metrics).
 */
export function rateLimits(
  limiter: RequestLimiter,
  healthPath: string,
  onRejected: (limiter: ApiLimiter) => void = () => {},
): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path === healthPath) return next();
    const verdict = await limiter.admit(ctx.ip);
    if (!verdict.admitted) {
      onRejected(verdict.limiter);
      throw GatewayError.tooManyRequests(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000)));
    }
    return next();
  };
}
