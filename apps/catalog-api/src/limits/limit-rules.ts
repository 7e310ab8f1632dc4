/**
 * The numbers both adapters count with, in one place so that the Lua script and the memory adapter
 * cannot drift apart.
 */

/** The sustained rate is RATE_LIMIT_RPS per window of this length, from the window's first request. */
export const GATEWAY_WINDOW_MS = 1000;

/**
 * RATE_LIMIT_BURST − RATE_LIMIT_RPS requests above the sustained rate per window of this length:
 * the burst allowance refills over a minute, so sustained traffic stays within 2% of RATE_LIMIT_RPS.
 */
export const BURST_WINDOW_MS = 60_000;

/**
 * The per-address window is counted in this many slices of its length, so the span counted is
 * between 29/30 and 30/30 of RATE_LIMIT_IP_WINDOW_SECONDS (290–300 s of the spec's 5 minutes).
 */
export const WINDOW_SLICES = 30;
