// The one fetch wrapper of the console: the ID token as Bearer, JSON in and out, error bodies turned
// into ApiError. A 401 ends the session; a 403 "Admin role required" shows the admin-required page.
import { currentIdToken, endSession, markNotAdmin } from '../auth/session.ts';
import { fieldErrorsOf } from '../domain/field-errors.ts';
import type { FieldError } from './types.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** 0 when no answer came: the API could not be reached or did not answer in time. */
  readonly status: number;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly fieldErrors: readonly FieldError[];
  /** A 429's Retry-After, in seconds. */
  readonly retryAfterSeconds: number | null;

  constructor(
    status: number,
    message: string,
    extra: {
      code?: string | null;
      requestId?: string | null;
      fieldErrors?: readonly FieldError[];
      retryAfterSeconds?: number | null;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.code = extra.code ?? null;
    this.requestId = extra.requestId ?? null;
    this.fieldErrors = extra.fieldErrors ?? [];
    this.retryAfterSeconds = extra.retryAfterSeconds ?? null;
  }
}

/**
 * How long the console waits for an answer before it gives up and offers to try again: far beyond
 * any answer of a working API (they take milliseconds), short enough that a frozen one is noticed.
 */
export const REQUEST_TIMEOUT_MS = 20_000;

/** Whether sending the same request again may succeed: no answer, too many requests, or a 5xx. */
export const isRetryable = (error: unknown): boolean =>
  error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);

/** A Retry-After header in seconds (delta-seconds or an HTTP date), or null. */
export function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/** "37 seconds", "4 minutes 37 seconds". */
export function formatWait(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  const part = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (minutes === 0) return part(rest, 'second');
  return rest === 0 ? part(minutes, 'minute') : `${part(minutes, 'minute')} ${part(rest, 'second')}`;
}

/**
 * A 429 as an administrator should read it: the wait the API asked for, and why the console may be
 * refused although its administrator sent few requests (spec 8: the per-address budget is shared).
 */
export function tooManyRequestsMessage(waitSeconds: number | null): string {
  const wait = waitSeconds === null ? 'Wait a moment' : `Wait ${formatWait(waitSeconds)}`;
  return (
    `Too many requests from this network address. ${wait}, then try again. ` +
    'The catalog API counts requests per address: integrations running on the same address share ' +
    'this budget with the console.'
  );
}

export const ADMIN_ROLE_REQUIRED = 'Admin role required';

/** Whether the write was refused because someone else changed the record since this page read it. */
export const isChangedElsewhere = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 412;

/** A record with the ETag of its version, to send back as If-Match with a write. */
export interface Tagged<T> {
  readonly value: T;
  readonly etag: string;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly query?: Readonly<Record<string, QueryValue>>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** The ETag of the read a write starts from: the API refuses it (412) if the record changed since. */
  readonly ifMatch?: string;
}

/** `?a=1&b=x` from the non-empty values, in order. */
export function queryString(query: Readonly<Record<string, QueryValue>> | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function errorFromBody(status: number, body: unknown, headerRequestId: string | null): ApiError {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message =
    typeof record.message === 'string' && record.message !== ''
      ? record.message
      : `The catalog API answered ${status}.`;
  const code =
    typeof record.error === 'string' ? record.error : typeof record.code === 'string' ? record.code : null;
  const requestId = typeof record.requestId === 'string' ? record.requestId : headerRequestId;
  return new ApiError(status, message, { code, requestId, fieldErrors: fieldErrorsOf(body) });
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  /** The same, with the record's ETag. */
  requestTagged<T>(path: string, options?: RequestOptions): Promise<Tagged<T>>;
}

export function createApiClient(apiBaseUrl: string): ApiClient {
  const client: ApiClient = {
    async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
      return (await client.requestTagged<T>(path, options)).value;
    },
    async requestTagged<T>(path: string, options: RequestOptions = {}): Promise<Tagged<T>> {
      const token = currentIdToken();
      if (token === null) throw new ApiError(401, 'Your session has ended.');
      const headers: Record<string, string> = {
        Accept: 'application/json',
        Authorization: `Bearer ${token}`,
      };
      const init: RequestInit = { method: options.method ?? 'GET', headers };
      if (options.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(options.body);
      }
      // The caller's cancel and the time-out both end the request, its answer's body included.
      const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
      init.signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
      if (options.ifMatch !== undefined) headers['If-Match'] = options.ifMatch;
      const timedOut = () =>
        new ApiError(
          0,
          `The catalog API did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds. Try again in a moment.`,
        );
      let response: Response;
      try {
        response = await fetch(`${apiBaseUrl}${path}${queryString(options.query)}`, init);
      } catch (error) {
        if (timeout.aborted) throw timedOut();
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new ApiError(0, 'The catalog API could not be reached. Check your connection and try again.');
      }
      const body: unknown = await response.json().catch(() => null);
      if (timeout.aborted) throw timedOut();
      if (options.signal?.aborted) throw new DOMException('The request was cancelled.', 'AbortError');
      if (response.ok) return { value: body as T, etag: response.headers.get('ETag') ?? '' };
      if (response.status === 429) {
        const wait = retryAfterSeconds(response.headers.get('Retry-After'), Date.now());
        throw new ApiError(429, tooManyRequestsMessage(wait), {
          requestId: response.headers.get('X-Request-Id'),
          retryAfterSeconds: wait,
        });
      }
      const apiError = errorFromBody(response.status, body, response.headers.get('X-Request-Id'));
      if (response.status === 401) endSession();
      else if (response.status === 403 && apiError.message === ADMIN_ROLE_REQUIRED) markNotAdmin();
      throw apiError;
    },
  };
  return client;
}
