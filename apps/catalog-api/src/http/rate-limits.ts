import type { Middleware } from 'koa';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config/config.ts';
import type { ApiLimiter } from '../metrics/catalog-metrics.ts';
import type { AppState } from './app-state.ts';
import { GatewayError } from './gateway-error.ts';
import { RollingWindowLimiter } from './rolling-window-limiter.ts';

// The burst allowance refills over a minute: sustained traffic stays within 2% of RATE_LIMIT_RPS.
const BURST_REFILL_S = 60;

type Limiter = Pick<RateLimiterMemory, 'consume'>;

function gatewayThrottle({ rps, burst }: RateLimitConfig): Limiter | undefined {
  if (rps === 0) return undefined;
  const sustained = new RateLimiterMemory({ keyPrefix: 'gateway', points: rps, duration: 1 });
  if (burst <= rps) return sustained;
  const extra = new RateLimiterMemory({ keyPrefix: 'burst', points: burst - rps, duration: BURST_REFILL_S });
  return new BurstyRateLimiter(sustained, extra);
}

/**
 * The limits of spec 8, in process: one throttle shared by every caller (RATE_LIMIT_RPS sustained,
 * RATE_LIMIT_BURST in a burst) and a per-source-IP limit (RATE_LIMIT_IP_PER_5MIN in any rolling
 * RATE_LIMIT_IP_WINDOW_SECONDS, 5 minutes by default, blocked until the window has room again). Over a limit: 429 with Retry-After. The health probe is exempt
 * so operators can see a saturated server is alive. `onRejected` hears of each 429 (the metrics).
 */
export function rateLimits(
  config: RateLimitConfig,
  healthPath: string,
  onRejected: (limiter: ApiLimiter) => void = () => {},
): Middleware<AppState> {
  const shared = gatewayThrottle(config);
  const perIp =
    config.ipPer5Min === 0
      ? undefined
      : new RollingWindowLimiter({ limit: config.ipPer5Min, windowMs: config.ipWindowMs });

  return async (ctx, next) => {
    if (ctx.path === healthPath) return next();
    const admission = perIp?.take(ctx.ip);
    if (admission !== undefined && !admission.allowed) {
      onRejected('ip_window');
      throw GatewayError.tooManyRequests(Math.max(1, Math.ceil(admission.retryAfterMs / 1000)));
    }
    try {
      await shared?.consume('all');
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      onRejected('gateway_throttle');
      throw GatewayError.tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
    return next();
  };
}
