import type { RateLimit } from '../config/config.ts';

export type Admission =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Events counted per key in a fixed window. In this process by default; a shared store (Redis)
 * takes its place when several token servers must agree.
 */
export interface RateLimiter {
  /** Counts one request for the key, or refuses it when the key has used up its window. */
  consume(key: string): Promise<Admission>;
  /** Whether the key has used up its window, without counting anything. */
  check(key: string): Promise<Admission>;
  /**
   * Counts an event that already happened (a failed login), whatever the count. True when this
   * event used up the key's window: exactly one event per window sees the key become refused.
   */
  record(key: string): Promise<boolean>;
  /** Forgets the key's count (a successful login clears its email's failures). */
  reset(key: string): Promise<void>;
}

/** Makes the limiter for one purpose (`name` keeps the purposes' keys apart in a shared store). */
export type RateLimiterFactory = (name: string, limit: RateLimit) => RateLimiter;
