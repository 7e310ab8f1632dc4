// Hooks for logging and telemetry. Each is called synchronously; an exception in a hook is ignored.
import type { CatalogError } from '../errors.ts';

export interface RequestEvent {
  readonly method: string;
  readonly url: string;
  readonly attempt: number;
  /** The W3C trace id the request was sent with (the servers log it on their request lines). */
  readonly traceId: string;
}
export interface ResponseEvent extends RequestEvent {
  readonly status: number;
  readonly durationMs: number;
  readonly requestId: string | undefined;
}
export interface RetryEvent extends RequestEvent {
  readonly delayMs: number;
  readonly error: CatalogError;
}
export interface TokenRefreshEvent {
  readonly reason: 'cold' | 'expiring' | 'rejected';
  readonly expiresInSeconds: number;
}
export interface RateLimitWaitEvent {
  readonly waitedMs: number;
}

export interface ClientHooks {
  readonly onRequest?: (event: RequestEvent) => void;
  readonly onResponse?: (event: ResponseEvent) => void;
  readonly onRetry?: (event: RetryEvent) => void;
  readonly onTokenRefresh?: (event: TokenRefreshEvent) => void;
  readonly onRateLimitWait?: (event: RateLimitWaitEvent) => void;
}

export function callHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  try {
    hook?.(event);
  } catch {
    // A failing hook must never fail the request.
  }
}
