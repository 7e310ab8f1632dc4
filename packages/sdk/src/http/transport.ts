// One HTTP call with the retry policy of spec 7.4: bounded attempts, full-jitter backoff honouring
// Retry-After, per-attempt and total timeouts, cancellation of attempts and sleeps, one token replay on 401.
import { type Dispatcher, request } from 'undici';
import {
  AbortError,
  CatalogError,
  errorFromResponse,
  NetworkError,
  TimeoutError,
  TlsCertificateError,
} from '../errors.ts';
import { fullJitterDelay, parseRetryAfter, sleep } from './backoff.ts';
import { certificateFailureCode } from './certificate-failure.ts';
import { type ClientHooks, callHook } from './hooks.ts';
import { type LinkedSignal, linkedSignal } from './linked-signal.ts';
import type { RequestPacer } from './pacer.ts';
import { childTraceparent, type Trace, traceOf } from './trace-context.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  readonly maxAttempts: number;
  /** Backoff base in ms (default 200). */
  readonly baseMs: number;
  /** Backoff cap in ms (default 20 000). */
  readonly capMs: number;
  /** A Retry-After longer than this fails at once instead of waiting (default 60 000 ms). */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  maxAttempts: 3,
  baseMs: 200,
  capMs: 20_000,
  maxRetryAfterMs: 60_000,
});

/** Per-call options every method takes. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the client's attempts for this call (1 = no retry; the sync runner counts its own). */
  readonly maxAttempts?: number;
  readonly attemptTimeoutMs?: number;
  readonly totalTimeoutMs?: number;
  /**
   * A W3C `traceparent` (e.g. your tracer's current span) whose trace this call joins. Default: a
   * new trace per call. Either way every attempt is sent with the trace id and a new parent-id.
   */
  readonly traceparent?: string;
}

/** `options` for every call of one operation (an iteration over pages): one trace for them all. */
export function oneTrace(options: CallOptions = {}): CallOptions {
  return { ...options, traceparent: options.traceparent ?? childTraceparent(traceOf(undefined)) };
}

export interface TransportSettings {
  readonly dispatcher: Dispatcher;
  readonly retry: RetryPolicy;
  readonly attemptTimeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly hooks: ClientHooks;
  readonly pacer: RequestPacer;
  readonly userAgent: string;
}

export interface Authorizer {
  /** `traceparent`: the request that needs the token, whose trace a token request joins. */
  header(signal: AbortSignal, traceparent?: string): Promise<string>;
  /** The token in `header` was refused: forget it (if still current) so the next call fetches another. */
  rejected(header: string): void;
}

export interface HttpCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: URL;
  readonly body?: string;
  readonly contentType?: string;
  /** Makes a write conditional on the record's version (an ETag from a read). */
  readonly ifMatch?: string;
  readonly auth?: Authorizer;
  /** Skip client-side pacing (token endpoint: another host, other limits). */
  readonly unpaced?: boolean;
}

export interface HttpReply<T> {
  readonly status: number;
  readonly body: T;
  readonly requestId: string | undefined;
  /** The record's version, on the admin reads and writes that send one. */
  readonly etag: string | undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

async function readJson(body: Dispatcher.ResponseData['body']): Promise<unknown> {
  const text = await body.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function send<T>(
  settings: TransportSettings,
  call: HttpCall,
  options: CallOptions = {},
): Promise<HttpReply<T>> {
  // First: a caller's traceparent that is not valid fails the call before anything is sent.
  const trace = traceOf(options.traceparent);
  const totalMs = options.totalTimeoutMs ?? settings.totalTimeoutMs;
  // The caller's signal and the total time-out, released when the call is over.
  const total = linkedSignal([options.signal], totalMs);
  try {
    return await sendWithin<T>(settings, call, options, total, trace, totalMs);
  } finally {
    total.release();
  }
}

async function sendWithin<T>(
  settings: TransportSettings,
  call: HttpCall,
  options: CallOptions,
  total: LinkedSignal,
  trace: Trace,
  totalMs: number,
): Promise<HttpReply<T>> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? settings.retry.maxAttempts);
  const attemptMs = options.attemptTimeoutMs ?? settings.attemptTimeoutMs;
  const outer = total.signal;
  const method = call.method;
  const url = call.url.toString();
  const traceId = trace.traceId;
  let replayed = false;

  const stopped = (cause: unknown, attempts: number): CatalogError | undefined => {
    if (options.signal?.aborted) return new AbortError({ message: 'Aborted by the caller', attempts, cause });
    if (total.timedOut()) {
      return new TimeoutError({
        message: `No answer within the total timeout of ${totalMs} ms`,
        attempts,
        cause,
      });
    }
    return undefined;
  };

  for (let attempt = 1; ; attempt += 1) {
    let error: CatalogError;
    try {
      const reply = await sendOnce<T>(settings, call, outer, attemptMs, attempt, trace);
      if (!(reply instanceof CatalogError)) return reply;
      error = reply;
      if (error.status === 401 && call.auth !== undefined && !replayed) {
        // Spec 7.4: a new token and one replay; the replay is not counted as a retry.
        replayed = true;
        attempt -= 1;
        continue;
      }
    } catch (thrown) {
      const stop = stopped(thrown, attempt);
      if (stop !== undefined) throw stop;
      if (!(thrown instanceof CatalogError) || thrown instanceof TokenFailure) {
        throw thrown instanceof TokenFailure ? thrown.error : thrown;
      }
      error = thrown;
    }
    error.attempts = attempt;
    if (!error.retryable || attempt >= maxAttempts) throw error;
    const retryAfter = error.retryAfterMs;
    if (retryAfter !== undefined && retryAfter > settings.retry.maxRetryAfterMs) throw error;
    const delayMs = Math.max(retryAfter ?? 0, fullJitterDelay(attempt, settings.retry));
    callHook(settings.hooks.onRetry, { method, url, attempt, traceId, delayMs, error });
    try {
      await sleep(delayMs, outer);
    } catch (cause) {
      throw stopped(cause, attempt) ?? cause;
    }
  }
}

/** Wraps a failure to obtain a token, so the call's own retry loop does not retry it again. */
class TokenFailure extends CatalogError {
  readonly error: unknown;
  constructor(error: unknown) {
    super({ message: 'token failure' });
    this.error = error;
  }
}

/** One attempt: a reply, an error response as a CatalogError, or a thrown transport failure. */
async function sendOnce<T>(
  settings: TransportSettings,
  call: HttpCall,
  outer: AbortSignal,
  attemptMs: number,
  attempt: number,
  trace: Trace,
): Promise<HttpReply<T> | CatalogError> {
  const method = call.method;
  const url = call.url.toString();
  const traceId = trace.traceId;
  if (!call.unpaced) {
    const waitedMs = await settings.pacer.acquire(outer);
    if (waitedMs > 0) callHook(settings.hooks.onRateLimitWait, { waitedMs });
  }
  const traceparent = childTraceparent(trace);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': settings.userAgent,
    traceparent,
  };
  if (call.contentType !== undefined) headers['content-type'] = call.contentType;
  if (call.ifMatch !== undefined) headers['if-match'] = call.ifMatch;
  let authorization: string | undefined;
  if (call.auth !== undefined) {
    try {
      authorization = await call.auth.header(outer, traceparent);
    } catch (cause) {
      throw new TokenFailure(cause);
    }
    headers.authorization = authorization;
  }
  const attemptLink = linkedSignal([outer], attemptMs);
  const attemptSignal = attemptLink.signal;
  callHook(settings.hooks.onRequest, { method, url, attempt, traceId });
  const started = performance.now();
  let response: Dispatcher.ResponseData;
  let body: unknown;
  try {
    response = await request(url, {
      method,
      headers,
      dispatcher: settings.dispatcher,
      signal: attemptSignal,
      ...(call.body === undefined ? {} : { body: call.body }),
    });
    body = await readJson(response.body);
  } catch (cause) {
    if (outer.aborted) throw cause;
    if (attemptSignal.aborted) throw new TimeoutError({ message: `No answer within ${attemptMs} ms`, cause });
    const certificateCode = certificateFailureCode(cause);
    if (certificateCode !== undefined) {
      throw new TlsCertificateError({
        message: `The TLS certificate of ${call.url.host} does not verify (${certificateCode}): pass the CA that signed it as \`ca\`, and check the host name`,
        code: certificateCode,
        cause,
      });
    }
    const detail =
      cause instanceof Error
        ? `${cause.message}${'code' in cause ? ` (${String(cause.code)})` : ''}`
        : String(cause);
    throw new NetworkError({ message: `Network failure: ${detail}`, cause });
  } finally {
    attemptLink.release();
  }
  const requestId = headerValue(response.headers['x-request-id']);
  callHook(settings.hooks.onResponse, {
    method,
    url,
    attempt,
    traceId,
    status: response.statusCode,
    durationMs: Math.round(performance.now() - started),
    requestId,
  });
  if (response.statusCode >= 200 && response.statusCode < 300) {
    return {
      status: response.statusCode,
      body: body as T,
      requestId,
      etag: headerValue(response.headers.etag),
    };
  }
  if (response.statusCode === 401 && authorization !== undefined) call.auth?.rejected(authorization);
  return errorFromResponse({
    status: response.statusCode,
    body,
    requestId,
    retryAfterMs: parseRetryAfter(response.headers['retry-after']),
    etag: headerValue(response.headers.etag),
  });
}
