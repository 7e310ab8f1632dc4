import { createMetricsRegistry } from '@catalog/server-runtime';
import { Counter, type Registry } from 'prom-client';
import type { RateLimiter, RateLimiterFactory } from '../ports/rate-limiters.ts';

/**
 * How a token request ended: issued, refused with one of the token endpoint's error codes (spec 7.4),
 * or refused by a rate limit. Any other code counts as "other", so the label set stays fixed.
 */
export const TOKEN_OUTCOMES = [
  'issued',
  'invalid_client',
  'invalid_request',
  'invalid_scope',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'rate_limited',
  'server_error',
  'other',
] as const;
export type TokenOutcome = (typeof TOKEN_OUTCOMES)[number];

/**
 * The token server's own metrics beyond the per-route request metrics, in the process's own
 * registry: token requests by outcome, rate-limit refusals by limiter (never a client id, an
 * address or an email), and the limit decisions made alone while Redis could not answer. `enabled`
 * false (METRICS_ENABLED=false) leaves out the request middleware and the process metrics.
 */
export class AuthMetrics {
  readonly registry: Registry;
  readonly enabled: boolean;
  readonly #tokenRequests: Counter<'outcome'>;
  readonly #rateLimitRejections: Counter<'limiter'>;
  readonly #rateLimitFallbacks: Counter;

  constructor(options: { readonly enabled: boolean }) {
    this.enabled = options.enabled;
    this.registry = createMetricsRegistry(options);
    const registers = [this.registry];
    this.#tokenRequests = new Counter({
      name: 'auth_token_requests_total',
      help: 'Requests to the token endpoint, by outcome (issued, the error code, or rate_limited).',
      labelNames: ['outcome'],
      registers,
    });
    this.#rateLimitRejections = new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused by a rate limit or a login lock-out, by limiter.',
      labelNames: ['limiter'],
      registers,
    });
    this.#rateLimitFallbacks = new Counter({
      name: 'auth_rate_limit_fallbacks_total',
      help: 'Rate-limit and lock-out decisions this instance made alone because Redis (REDIS_URL) could not answer.',
      registers,
    });
    // Known label values start at 0, so a rate() sees the first one.
    for (const outcome of TOKEN_OUTCOMES) this.#tokenRequests.inc({ outcome }, 0);
  }

  tokenOutcome(outcome: TokenOutcome): void {
    this.#tokenRequests.inc({ outcome });
  }

  /** A rate-limit or lock-out decision made in this process because Redis could not answer. */
  rateLimitFallback(): void {
    this.#rateLimitFallbacks.inc();
  }

  /**
   * The rate limiters, each counting its refusals under its purpose's name (token_ip, token_client,
   * sign_in_ip, login_ip, login_email): `consume` refusing a request, `check` finding a lock-out.
   */
  meteredRateLimiters(make: RateLimiterFactory): RateLimiterFactory {
    return (name, limit) => {
      const limiter = make(name, limit);
      const labels = { limiter: name.replaceAll('-', '_') };
      this.#rateLimitRejections.inc(labels, 0);
      const counted = async (admission: ReturnType<RateLimiter['consume']>) => {
        const result = await admission;
        if (!result.allowed) this.#rateLimitRejections.inc(labels);
        return result;
      };
      return {
        consume: (key) => counted(limiter.consume(key)),
        check: (key) => counted(limiter.check(key)),
        record: (key) => limiter.record(key),
        reset: (key) => limiter.reset(key),
      };
    };
  }
}

/** The outcome label of a token endpoint answer. */
export function tokenOutcomeOf(status: number, error: unknown): TokenOutcome {
  if (status === 200) return 'issued';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return (TOKEN_OUTCOMES as readonly unknown[]).includes(error) ? (error as TokenOutcome) : 'other';
}
