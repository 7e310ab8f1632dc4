// One error base class with status, contract code, requestId, retryable and attempts; one subclass per
// category; one factory that picks the class from the status and the contract code (spec 7.2–7.4).
import type { ErrorCode } from '@catalog/contracts';

export interface CatalogErrorInit {
  readonly message: string;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
  readonly requestId?: string | undefined;
  readonly attempts?: number | undefined;
  readonly retryAfterMs?: number | undefined;
  readonly body?: unknown;
  readonly cause?: unknown;
}

/** Every failure the SDK reports. `status` is undefined for transport failures (no response). */
export class CatalogError extends Error {
  override readonly name: string = 'CatalogError';
  readonly status: number | undefined;
  /** The contract code (`error`, or `code` on GET /brands/search), or the token endpoint's `error`. */
  readonly code: ErrorCode | (string & {}) | undefined;
  readonly requestId: string | undefined;
  /** Whether the same request may succeed later (spec 7.4). */
  readonly retryable: boolean = false;
  /** How many attempts were made before giving up. */
  attempts: number;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;
  readonly body: unknown;

  constructor(init: CatalogErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.attempts = init.attempts ?? 1;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
  }
}

/** 401: the token was refused even after one refresh, or the token endpoint refused the credentials. */
export class AuthenticationError extends CatalogError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: missing scope, denied endpoint or revoked client. Never retried. */
export class ForbiddenError extends CatalogError {
  override readonly name: string = 'ForbiddenError';
}
export class NotFoundError extends CatalogError {
  override readonly name: string = 'NotFoundError';
}
/** Any other 4xx: the request must be fixed. */
export class BadRequestError extends CatalogError {
  override readonly name: string = 'BadRequestError';
}
/** 400 INVALID_SYNC_TOKEN: the cursor can never succeed; discard it and restart from the committed checkpoint. */
export class InvalidSyncTokenError extends BadRequestError {
  override readonly name: string = 'InvalidSyncTokenError';
}
/**
 * 412: the record changed since the read whose ETag the write sent (`ifMatch`); nothing was
 * written. `currentEtag` is the version a new read returns: read, reapply the change, write again.
 */
export class PreconditionFailedError extends CatalogError {
  override readonly name: string = 'PreconditionFailedError';
  readonly currentEtag: string | undefined;

  constructor(init: CatalogErrorInit & { currentEtag?: string | undefined }) {
    super(init);
    this.currentEtag = init.currentEtag;
  }
}

/** 429. */
export class RateLimitError extends CatalogError {
  override readonly name: string = 'RateLimitError';
  override readonly retryable = true;
}
/** 5xx, including 503 SEARCH_INCOMPLETE and 504 SEARCH_TIMEOUT. */
export class ServerError extends CatalogError {
  override readonly name: string = 'ServerError';
  override readonly retryable = true;
}
/** An attempt or the whole call ran out of time. */
export class TimeoutError extends CatalogError {
  override readonly name: string = 'TimeoutError';
  override readonly retryable = true;
}
/** No usable response: connection reset or refused, TLS handshake cut, malformed body. */
export class NetworkError extends CatalogError {
  override readonly name: string = 'NetworkError';
  override readonly retryable = true;
}
/**
 * The server's TLS certificate does not verify (unknown CA, wrong host name, expired…): a configuration
 * problem that no retry can cure, so never retried. `code` is the TLS error code, e.g.
 * UNABLE_TO_VERIFY_LEAF_SIGNATURE; pass the CA that signed the certificate as `ca`.
 */
export class TlsCertificateError extends CatalogError {
  override readonly name: string = 'TlsCertificateError';
}
/** The caller's AbortSignal fired. */
export class AbortError extends CatalogError {
  override readonly name: string = 'AbortError';
}
/** The client was configured wrongly (http:// base URL, unknown option…). Thrown at construction. */
export class ConfigurationError extends CatalogError {
  override readonly name: string = 'ConfigurationError';
}

function readString(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

/** The error a non-2xx response stands for. Branches on the status; the code refines it (spec 7.2). */
export function errorFromResponse(response: {
  status: number;
  body: unknown;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
  etag?: string | undefined;
}): CatalogError {
  const { status, body } = response;
  const code = readString(body, 'error') ?? readString(body, 'code');
  const init: CatalogErrorInit = {
    message: readString(body, 'message') ?? readString(body, 'error_description') ?? `HTTP ${status}`,
    status,
    code,
    requestId: readString(body, 'requestId') ?? response.requestId,
    retryAfterMs: response.retryAfterMs,
    body,
  };
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new ForbiddenError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 429) return new RateLimitError(init);
  if (status === 412) return new PreconditionFailedError({ ...init, currentEtag: response.etag });
  if (status === 400 && code === 'INVALID_SYNC_TOKEN') return new InvalidSyncTokenError(init);
  if (status >= 500) return new ServerError(init);
  return new BadRequestError(init);
}
