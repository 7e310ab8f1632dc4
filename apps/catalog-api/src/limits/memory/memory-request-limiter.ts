import type { RateLimitConfig } from '../../config/config.ts';
import type { LimitVerdict, RequestLimiter } from '../request-limiter.ts';
import { GatewayThrottle } from './gateway-throttle.ts';
import { RollingWindowLimiter } from './rolling-window-limiter.ts';

/**
 * The limits in this process's memory: the embedded default (no REDIS_URL), and each instance's
 * insurance while Redis cannot answer. Deciding synchronously makes check-then-count atomic.
 */
export class MemoryRequestLimiter implements RequestLimiter {
  readonly #perAddress: RollingWindowLimiter | undefined;
  readonly #gateway: GatewayThrottle | undefined;

  constructor(limits: RateLimitConfig, now: () => number = Date.now) {
    this.#perAddress =
      limits.ipPer5Min === 0
        ? undefined
        : new RollingWindowLimiter({ limit: limits.ipPer5Min, windowMs: limits.ipWindowMs, now });
    this.#gateway =
      limits.rps === 0 ? undefined : new GatewayThrottle({ rps: limits.rps, burst: limits.burst, now });
  }

  async admit(address: string): Promise<LimitVerdict> {
    const window = this.#perAddress?.check(address);
    if (window !== undefined && !window.allowed) {
      return { admitted: false, limiter: 'ip_window', retryAfterMs: window.retryAfterMs };
    }
    this.#perAddress?.record(address);
    const throttle = this.#gateway?.take();
    if (throttle !== undefined && !throttle.allowed) {
      return { admitted: false, limiter: 'gateway_throttle', retryAfterMs: throttle.retryAfterMs };
    }
    return { admitted: true };
  }

  async close(): Promise<void> {
    this.#perAddress?.stop();
  }
}
