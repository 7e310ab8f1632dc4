import type { Middleware } from 'koa';
import type { RateLimiter } from '../ports/rate-limiters.ts';
import { answerTokenRateLimited } from './too-many-requests.ts';

/**
 * Token requests per source IP, counted before anything is parsed or hashed. The per-client-id
 * limit needs the form body, which only the provider reads: it is applied in the client lookup
 * (../oidc/adapter-factory.ts). `onRefused` hears of each refusal (the metrics).
 */
export function tokenRateLimit(
  tokenPath: string,
  perIp: RateLimiter,
  onRefused: () => void = () => {},
): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== tokenPath) return next();
    const admission = await perIp.consume(ctx.ip);
    if (!admission.allowed) {
      onRefused();
      return answerTokenRateLimited(ctx, admission.retryAfterSeconds);
    }
    return next();
  };
}
