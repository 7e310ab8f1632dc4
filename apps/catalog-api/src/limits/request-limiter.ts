import type { ApiLimiter } from '../metrics/catalog-metrics.ts';

/** What one request is told: go on, or which limit of spec 8 refused it and for how long. */
export type LimitVerdict =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly limiter: ApiLimiter; readonly retryAfterMs: number };

/**
 * The limits of spec 8, decided for one request at once: first the rolling window of its source
 * address (RATE_LIMIT_IP_PER_5MIN), then the gateway throttle every caller shares (RATE_LIMIT_RPS
 * sustained, RATE_LIMIT_BURST in a burst). Every request its address's window lets through counts
 * in that window, the throttle's refusals included (spec 8 counts an address's requests: one source
 * address gets 1,000, however many of them the shared throttle turned away); a request the window
 * refused counts nowhere, so a blocked address gets back in as its oldest requests leave the window
 * however often it retries, and spends none of the shared budget. Both adapters (memory/, redis/) apply the rules of `limit-rules.ts` and pass one contract
 * suite (test/limits/request-limiter.contract.ts).
 */
export interface RequestLimiter {
  admit(address: string): Promise<LimitVerdict>;
  /** Releases what the limiter holds (timers, a connection). */
  close(): Promise<void>;
}
