// The one fetch wrapper of the console: the ID token as Bearer, JSON in and out, error bodies turned
// into ApiError. A 401 ends the session; a 403 "Admin role required" shows the admin-required page.
import { currentIdToken, endSession, markNotAdmin } from '../auth/session.ts';
import { fieldErrorsOf } from '../domain/field-errors.ts';
import type { FieldError } from './types.ts';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | null;
  readonly requestId: string | null;
  readonly fieldErrors: readonly FieldError[];

  constructor(
    status: number,
    message: string,
    extra: { code?: string | null; requestId?: string | null; fieldErrors?: readonly FieldError[] } = {},
  ) {
    super(message);
    this.status = status;
    this.code = extra.code ?? null;
    this.requestId = extra.requestId ?? null;
    this.fieldErrors = extra.fieldErrors ?? [];
  }
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
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
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
      if (options.signal !== undefined) init.signal = options.signal;
      if (options.ifMatch !== undefined) headers['If-Match'] = options.ifMatch;
      let response: Response;
      try {
        response = await fetch(`${apiBaseUrl}${path}${queryString(options.query)}`, init);
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        throw new ApiError(0, 'The catalog API could not be reached. Check your connection and try again.');
      }
      const body: unknown = await response.json().catch(() => null);
      if (response.ok) return { value: body as T, etag: response.headers.get('ETag') ?? '' };
      const apiError = errorFromBody(response.status, body, response.headers.get('X-Request-Id'));
      if (response.status === 401) endSession();
      else if (response.status === 403 && apiError.message === ADMIN_ROLE_REQUIRED) markNotAdmin();
      throw apiError;
    },
  };
  return client;
}
